/**
 * Binds a statement's `{name:Type}` parameters into ClickHouse literals on our side, for the
 * embedded engine only. chDB serializes every parameterized statement process-wide (its
 * parameter binding is not isolated between connections, node_modules/chdb/index.js
 * `globalParamChain`), so one team's slow parameterized query held up every other query, and
 * the pool of query connections ran one statement at a time (a short query waited for a long one
 * to end; without parameters both run side by side). The SQL is still written with
 * parameters everywhere; this binder turns each value into a literal of its declared type, the
 * way the engine would, and refuses anything that does not fit the type.
 */

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([A-Za-z0-9(), ]+)\}/g;

export class ParameterError extends Error {}

function integer(value: unknown, type: string, unsigned: boolean): string {
  const text =
    typeof value === 'bigint'
      ? value.toString()
      : typeof value === 'number' && Number.isSafeInteger(value)
        ? String(value)
        : typeof value === 'string'
          ? value
          : null;
  if (text === null || !/^-?\d{1,20}$/.test(text) || (unsigned && text.startsWith('-'))) throw new ParameterError(`${JSON.stringify(value)} is not a ${type}`);
  return text;
}

/** A ClickHouse string literal: quotes and backslashes escaped, control bytes as \xHH. */
export function stringLiteral(value: string): string {
  let out = "'";
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    if (char === "'" || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return `${out}'`;
}

function literal(value: unknown, type: string): string {
  const array = /^Array\((.+)\)$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) throw new ParameterError(`${JSON.stringify(value)?.slice(0, 40)} is not an ${type}`);
    return `CAST([${value.map((item) => literal(item, array[1] as string)).join(', ')}], ${stringLiteral(type)})`;
  }
  switch (type) {
    case 'String':
      if (typeof value !== 'string') throw new ParameterError(`${JSON.stringify(value)} is not a String`);
      return stringLiteral(value);
    case 'UInt8':
    case 'UInt16':
    case 'UInt32':
    case 'UInt64':
      return `to${type}(${integer(value, type, true)})`;
    case 'Int32':
    case 'Int64':
      return `to${type}(${integer(value, type, false)})`;
    case 'Float64':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new ParameterError(`${JSON.stringify(value)} is not a finite Float64`);
      return `toFloat64(${String(value)})`;
    case 'Date':
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new ParameterError(`${JSON.stringify(value)} is not a Date`);
      return `toDate('${value}')`;
    default:
      throw new ParameterError(`parameters of type ${type} are not supported`);
  }
}

/** The statement with every placeholder replaced by its value's literal; a missing value is an error. */
export function inlineParameters(sql: string, params: Record<string, unknown>): string {
  return sql.replace(PLACEHOLDER, (_match, name: string, type: string) => {
    if (!Object.hasOwn(params, name)) throw new ParameterError(`no value for the parameter {${name}:${type}}`);
    return literal(params[name], type.trim());
  });
}
