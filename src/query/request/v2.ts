import type { z } from 'zod';
import { QUERY_LIMITS, queryRequest } from '../../contracts/query.js';
import { badRequest } from '../../errors.js';
import { canonicalDimension, dimensionChoices, dimensionKind, FILTER_OPERATORS, type FilterOperator } from '../catalog.js';
import { METRICS, parseMetric } from '../metrics.js';
import type { FilterTree, ParsedQuery } from '../model.js';
import { expandedRegexSize, MAX_REGEX_SIZE, MAX_REGEX_UNION_SIZE } from './regexCost.js';

/**
 * The v2 query request: the whole object is validated before any data is touched. Structure is
 * a zod schema (strict everywhere, so an unknown key is named with where it is; src/contracts/query.ts
 * `queryRequest`); filters, being positional arrays, are checked by hand so every message can say
 * exactly what is wrong.
 */

function pointer(path: PropertyKey[]): string {
  return `#/${path.map(String).join('/')}`;
}

/** Whether the request holds a value at a path (zod's issues do not carry the input itself). */
function isPresent(body: unknown, path: PropertyKey[]): boolean {
  let value = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value !== undefined;
}

function describeIssue(issue: z.core.$ZodIssue, body: unknown): string {
  const where = issue.path.length ? pointer(issue.path) : 'the request';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `"${key}"`).join(', ');
    return `Unknown key ${keys} in ${where}; remove it (the query language has no such option there).`;
  }
  if (!isPresent(body, issue.path)) return `${where} is required.`;
  return `${where} ${issue.message}.`;
}

/** A request body checked against its strict schema, the first mistake (an unknown key first) said with where it is. */
export function checkBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('invalid_query', 'The request body must be a JSON object.');
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues.find((i) => i.code === 'unrecognized_keys') ?? result.error.issues[0];
    throw badRequest(issue?.code === 'unrecognized_keys' ? 'unknown_key' : 'invalid_query', issue ? describeIssue(issue, body) : 'The query is not valid.');
  }
  return result.data;
}

export function parseRequest(body: unknown): ParsedQuery {
  const query = checkBody(queryRequest, body);
  const metricSpecs = query.metrics.map((metric, index) => {
    const spec = parseMetric(metric);
    if (!spec) {
      throw badRequest(
        'invalid_metric',
        `#/metrics/${index}: Invalid metric "${metric}"; choose from ${METRICS.join(', ')}, or sum|avg|min|max|p50…p99(event:props:<name>).`,
      );
    }
    return spec;
  });
  assertUnique(query.metrics, 'metrics');
  const dimensions = (query.dimensions ?? []).map((dimension, index) => {
    const canonical = canonicalDimension(dimension);
    if (!dimensionKind(canonical))
      throw badRequest('invalid_dimension', `#/dimensions/${index}: Invalid dimension "${dimension}"; choose from ${dimensionChoices()}.`);
    return canonical;
  });
  assertUnique(dimensions, 'dimensions');
  if (dimensions.filter((d) => d.startsWith('time')).length > 1) throw badRequest('invalid_dimension', '#/dimensions may hold only one time dimension.');
  const filters = (query.filters ?? []).map((filter, index) => parseFilter(filter, [`filters`, index], false));
  const comparisons = query.include?.comparisons;
  if (comparisons?.mode === 'custom' && !comparisons.date_range) {
    throw badRequest('invalid_comparison', '#/include/comparisons/date_range is required when the comparison mode is "custom".');
  }
  if (comparisons && comparisons.mode !== 'custom' && comparisons.date_range) {
    throw badRequest('invalid_comparison', '#/include/comparisons/date_range is only taken with the mode "custom".');
  }
  if (query.include?.time_labels && !dimensions.some((d) => d.startsWith('time'))) {
    throw badRequest('invalid_query', '#/include/time_labels needs a time dimension to label.');
  }
  return {
    siteId: query.site_id,
    metrics: query.metrics,
    metricSpecs,
    dateRange: query.date_range,
    dimensions,
    filters,
    orderBy: query.order_by ?? null,
    limit: query.pagination?.limit ?? QUERY_LIMITS.defaultPageSize,
    offset: query.pagination?.offset ?? 0,
    comparison: comparisons
      ? {
          mode: comparisons.mode,
          ...(comparisons.date_range ? { dateRange: comparisons.date_range } : {}),
          matchDayOfWeek: comparisons.match_day_of_week ?? false,
        }
      : null,
    timezone: query.timezone ?? null,
    exact: query.exact ?? false,
    timeLabels: query.include?.time_labels ?? false,
    totalRows: query.include?.total_rows ?? false,
    trimRelativeDateRange: query.include?.trim_relative_date_range ?? false,
    imports: query.include?.imports ?? false,
  };
}

function assertUnique(values: string[], key: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw badRequest('invalid_query', `#/${key}: Expected items to be unique but they were not ("${value}" appears twice).`);
    seen.add(value);
  }
}

const invalidFilter = (path: (string | number)[], problem: string) => badRequest('invalid_filter', `${pointer(path)}: ${problem}`);

/** A short rendering of a request value for an error sentence; one too deep to render is said to be. */
function preview(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 100) ?? String(value);
  } catch {
    return 'a value nested too deeply to show';
  }
}

/** A filter tree: a leaf `[op, dimension, values, options?]` or a combinator over inner filters. */
export function parseFilter(raw: unknown, path: (string | number)[], insideBehavioral: boolean, depth = 1): FilterTree {
  if (!Array.isArray(raw) || raw.length === 0 || typeof raw[0] !== 'string') {
    throw invalidFilter(path, `a filter is an array such as ["is", "visit:country", ["DE"]], got ${preview(raw)}.`);
  }
  const op = raw[0];
  // Each combinator is a level of nested SQL; past a few the engine refuses the statement (TOO_DEEP_AST).
  if (depth > QUERY_LIMITS.filterDepth && (op === 'and' || op === 'or' || op === 'not' || op === 'has_done' || op === 'has_not_done')) {
    throw invalidFilter(path, `filters may be nested at most ${QUERY_LIMITS.filterDepth} levels deep.`);
  }
  if (op === 'and' || op === 'or') {
    if (raw.length !== 2 || !Array.isArray(raw[1]) || raw[1].length === 0)
      throw invalidFilter(path, `"${op}" takes one non-empty array of filters: ["${op}", [filter, …]].`);
    if (raw[1].length > QUERY_LIMITS.filters) throw invalidFilter(path, `"${op}" may combine at most ${QUERY_LIMITS.filters} filters.`);
    return { op, children: raw[1].map((child: unknown, i: number) => parseFilter(child, [...path, 1, i], insideBehavioral, depth + 1)) };
  }
  if (op === 'not') {
    if (raw.length !== 2) throw invalidFilter(path, '"not" takes one inner filter: ["not", filter].');
    return { op, child: parseFilter(raw[1], [...path, 1], insideBehavioral, depth + 1) };
  }
  if (op === 'has_done' || op === 'has_not_done') {
    if (insideBehavioral) throw invalidFilter(path, `"${op}" cannot be nested inside another has_done or has_not_done.`);
    if (raw.length !== 2) throw invalidFilter(path, `"${op}" takes one inner filter: ["${op}", filter].`);
    const child = parseFilter(raw[1], [...path, 1], true, depth + 1);
    assertEventScoped(child, [...path, 1], op);
    return { op, child };
  }
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    throw invalidFilter(path, `unknown operator "${op}"; choose from ${[...FILTER_OPERATORS, 'and', 'or', 'not', 'has_done', 'has_not_done'].join(', ')}.`);
  }
  if (raw.length < 3 || raw.length > 4) throw invalidFilter(path, `"${op}" takes [operator, dimension, [values], options?].`);
  const [, dimensionRaw, values, options] = raw as [string, unknown, unknown, unknown];
  if (typeof dimensionRaw !== 'string') throw invalidFilter([...path, 1], 'the dimension must be a string.');
  if (dimensionRaw === SEGMENT) return parseSegmentFilter(op, values, path, insideBehavioral);
  const dimension = canonicalDimension(dimensionRaw);
  const kind = dimensionKind(dimension);
  if (!kind) throw invalidFilter([...path, 1], `unknown dimension "${dimensionRaw}"; choose from ${dimensionChoices()}.`);
  if (kind.kind === 'time') throw invalidFilter([...path, 1], `a time dimension ("${dimensionRaw}") cannot be filtered; narrow the date_range instead.`);
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string' || typeof v === 'number')) {
    throw invalidFilter([...path, 2], 'the values must be a non-empty array of strings.');
  }
  if (values.length > QUERY_LIMITS.filterValues) {
    throw invalidFilter(
      [...path, 2],
      `one filter may hold at most ${QUERY_LIMITS.filterValues.toLocaleString('en')} values, got ${values.length.toLocaleString('en')}.`,
    );
  }
  const tooLong = values.findIndex((value) => String(value).length > QUERY_LIMITS.filterValueLength);
  if (tooLong >= 0) {
    throw invalidFilter(
      [...path, 2, tooLong],
      `a filter value may be at most ${QUERY_LIMITS.filterValueLength.toLocaleString('en')} characters long, got ${String(values[tooLong]).length.toLocaleString('en')}.`,
    );
  }
  let caseSensitive = true;
  if (options !== undefined) {
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      throw invalidFilter([...path, 3], 'options must be an object such as {"case_sensitive": false}.');
    const unknown = Object.keys(options).filter((key) => key !== 'case_sensitive');
    if (unknown.length) throw badRequest('unknown_key', `Unknown key "${unknown[0]}" in ${pointer([...path, 3])}; the only filter option is "case_sensitive".`);
    const value = (options as { case_sensitive?: unknown }).case_sensitive;
    if (value !== undefined && typeof value !== 'boolean') throw invalidFilter([...path, 3, 'case_sensitive'], 'must be true or false.');
    caseSensitive = value ?? true;
  }
  const strings = values.map(String);
  // As the reference: countries are stored as ISO 3166-1 alpha-2 codes, so an exact match on
  // anything else ("USA", "Germany") is a mistake worth a 400 rather than a silent zero.
  if (dimension === 'visit:country' && (op === 'is' || op === 'is_not') && strings.some((value) => [...value].length !== 2)) {
    throw badRequest('invalid_filter', 'Invalid visit:country filter, visit:country needs to be a valid 2-letter country code.');
  }
  if (op === 'matches' || op === 'matches_not') {
    strings.forEach((pattern, i) => assertRegex(pattern, [...path, 2, i]));
    // A filter's patterns are matched as one union, so they share one budget.
    const total = strings.reduce((sum, pattern) => sum + expandedRegexSize(pattern), 0);
    if (total > MAX_REGEX_UNION_SIZE) {
      throw invalidFilter(
        [...path, 2],
        `these regular expressions are too costly to match together (over ${MAX_REGEX_UNION_SIZE} characters once spelled out); use fewer or simpler ones.`,
      );
    }
  }
  return { op: op as FilterOperator, dimension, values: strings, caseSensitive };
}

/** The pseudo-dimension of a saved segment's filter, `["is", "segment", [id]]` (docs/query-api.md "Segments"). */
export const SEGMENT = 'segment';

/**
 * A saved segment's filter, kept as a leaf of segment ids until the site's segments replace it
 * with their filters (src/query/plan/segments.ts); as the reference, only `is` takes it.
 */
function parseSegmentFilter(op: string, values: unknown, path: (string | number)[], insideBehavioral: boolean): FilterTree {
  if (op !== 'is') throw invalidFilter(path, `a segment is chosen with "is" only: ["is", "segment", [segment id]], not "${op}".`);
  if (insideBehavioral) throw invalidFilter(path, 'a segment filters whole visits, so it cannot stand inside has_done or has_not_done.');
  const ids = Array.isArray(values) ? values.map((value) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value)) : [];
  if (ids.length === 0 || !ids.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id > 0)) {
    throw invalidFilter([...path, 2], `a segment filter takes the ids of saved segments, such as ["is", "segment", [12]]; got ${preview(values)}.`);
  }
  return { op: 'is', dimension: SEGMENT, values: ids.map(String), caseSensitive: true };
}

function assertEventScoped(tree: FilterTree, path: (string | number)[], op: string): void {
  if ('dimension' in tree) {
    const kind = dimensionKind(tree.dimension);
    if (kind?.kind === 'column' && kind.def.scope === 'session') {
      throw invalidFilter(path, `"${op}" looks at what a visit did, so its filter must be on event or visit attributes, not "${tree.dimension}".`);
    }
    return;
  }
  if ('children' in tree) tree.children.forEach((child, i) => assertEventScoped(child, [...path, 1, i], op));
  else assertEventScoped(tree.child, [...path, 1], op);
}

/**
 * Patterns run in ClickHouse's RE2, which has no look-around or back-references; reject those and
 * anything JavaScript cannot parse, so a pattern fails here with a sentence rather than mid-query.
 */
function assertRegex(pattern: string, path: (string | number)[]): void {
  if (expandedRegexSize(pattern) > MAX_REGEX_SIZE) {
    throw invalidFilter(
      path,
      `the regular expression "${pattern.slice(0, 60)}${pattern.length > 60 ? '…' : ''}" is too costly to match: spelled out, its counted repetitions ({n}) make it longer than ${MAX_REGEX_SIZE} characters.`,
    );
  }
  if (/\(\?<?[=!]/.test(pattern) || /\\[1-9]/.test(pattern)) {
    throw invalidFilter(path, `the regular expression "${pattern}" uses look-around or a back-reference, which RE2 does not support.`);
  }
  try {
    // RE2 flag groups such as (?i) are valid there though JavaScript lacks them.
    new RegExp(pattern.replace(/^\(\?[imsU]+\)/, ''));
  } catch {
    throw invalidFilter(path, `"${pattern}" is not a valid regular expression.`);
  }
}
