import { badRequest } from '../../errors.js';
import { pathPattern } from '../goals.js';

/**
 * v1's filter strings: clauses separated by `;` (all must hold), values by `|` (any may match;
 * `\|` is a literal bar), operators `==` is, `!=` is not, `~` contains, `!~` does not contain.
 * A `*` in an `==`/`!=` value is a wildcard. A JSON array is taken as v2 filters unchanged.
 */
export function parseV1Filters(text: string | undefined): unknown[] {
  if (text === undefined || text.trim() === '') return [];
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // fall through to the sentence below
    }
    throw badRequest('invalid_filter', 'filters starting with "[" must be a JSON array of v2 filters.');
  }
  return splitUnescaped(trimmed, ';')
    .filter((clause) => clause.trim() !== '')
    .map(parseClause)
    .filter((filter): filter is unknown[] => filter !== null);
}

// Any property name is taken here; an unknown one is refused by name afterwards.
const OPERATOR = /^\s*([^=!~\s][^=!~]*?)\s*(==|!=|!~|~)\s*(.*)$/s;

function parseClause(clause: string): unknown[] | null {
  const match = OPERATOR.exec(clause);
  if (!match) {
    throw badRequest('invalid_filter', `The filter "${clause}" is not of the form property==value (operators ==, !=, ~, !~), e.g. visit:country==DE.`);
  }
  const [, property = '', operator, rawValues = ''] = match;
  const values = splitUnescaped(rawValues, '|').map((value) => value.replace(/\\([|;])/g, '$1').trim());
  if (values.some((value) => value === '')) throw badRequest('invalid_filter', `The filter "${clause}" has an empty value.`);
  switch (operator) {
    case '~':
      return ['contains', property, values];
    case '!~':
      return ['contains_not', property, values];
    default: {
      // As the reference's v1: an exact or wildcard country clause whose value is not two
      // characters long is dropped, not refused (v2 answers such a filter with a 400).
      if (property === 'visit:country' && values.some((value) => [...value].length !== 2)) return null;
      const negated = operator === '!=';
      if (values.some((value) => value.includes('*'))) return [negated ? 'matches_not' : 'matches', property, values.map(pathPattern)];
      return [negated ? 'is_not' : 'is', property, values];
    }
  }
}

function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && text[i + 1] === separator) {
      current += `\\${separator}`;
      i++;
    } else if (char === separator) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}
