import type { Filter } from './context';
import { PERIODS, periodRange } from './periods';
import { countryCodeOf, valueLabel } from './places';

/** The whole view lives in the URL, so any view can be bookmarked and back/forward work. */
export interface ViewState {
  period: string;
  from: string | null;
  to: string | null;
  filters: Filter[];
  compare: Comparison;
  /** The custom comparison's range (compare = custom). */
  compareFrom: string | null;
  compareTo: string | null;
  /** Compare weekdays with weekdays (previous period, year before): the compared range starts on the same day of the week. */
  matchDayOfWeek: boolean;
  /** The graph's bucket width; null lets the range decide (spec.md "Dimensions": bare `time`). */
  interval: Interval | null;
  /** Whether a site's imported history is merged into the numbers (as Plausible's dashboard does by default). */
  imported: boolean;
  metric: string;
}

export type Comparison = 'off' | 'previous_period' | 'year_over_year' | 'custom';
export const COMPARISONS: { value: Comparison; label: string }[] = [
  { value: 'off', label: 'No comparison' },
  { value: 'previous_period', label: 'Compare: previous period' },
  { value: 'year_over_year', label: 'Compare: year over year' },
  { value: 'custom', label: 'Compare: custom range…' },
];

export type Interval = 'minute' | 'hour' | 'day' | 'week' | 'month';
export const INTERVALS: { value: Interval; label: string }[] = [
  { value: 'minute', label: 'Minutes' },
  { value: 'hour', label: 'Hours' },
  { value: 'day', label: 'Days' },
  { value: 'week', label: 'Weeks' },
  { value: 'month', label: 'Months' },
];

/**
 * The bucket widths worth offering for a range of so many days: fine enough to show a shape,
 * coarse enough to stay readable (the engine itself refuses more than 10,000 buckets).
 */
export function intervalsFor(days: number): Interval[] {
  const fits: Record<Interval, boolean> = { minute: days <= 1, hour: days <= 31, day: days > 1 && days <= 1100, week: days >= 14, month: days >= 60 };
  return INTERVALS.map((i) => i.value).filter((interval) => fits[interval]);
}

const isDate = (text: string | null): text is string => text !== null && /^\d{4}-\d{2}-\d{2}$/.test(text);

/** A day the calendar has, `YYYY-MM-DD`. */
const isDay = (text: string | null): text is string => isDate(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/**
 * The range a URL asks for, as the menu offers it: an unknown period or a custom range with a
 * missing or impossible day is the default range, and days given the wrong way round are taken the
 * right way round, so no panel ever shows the engine's refusal of a hand-edited address.
 */
function periodOf(search: URLSearchParams): Pick<ViewState, 'period' | 'from' | 'to'> {
  const from = search.get('from');
  const to = search.get('to');
  const period = search.get('period') ?? (from ? 'custom' : '28d');
  if (period !== 'custom') return PERIODS.some((p) => p.value === period) ? { period, from: null, to: null } : DEFAULT_PERIOD;
  if (!isDay(from) || !isDay(to)) return DEFAULT_PERIOD;
  // Days are YYYY-MM-DD text: sorting them orders them in time.
  const [first, last] = [from, to].sort() as [string, string];
  return { period, from: first, to: last };
}
const DEFAULT_PERIOD = { period: '28d', from: null, to: null };

/** A country named in a URL's filter ("Germany") as the code the engine keeps, when it names one. */
function withCountryCodes(filter: Filter): Filter {
  const [op, dimension, values, ...rest] = filter;
  if (dimension !== 'visit:country' || !Array.isArray(values)) return filter;
  return [op, dimension, values.map((value) => (typeof value === 'string' && value.length !== 2 ? (countryCodeOf(value) ?? value) : value)), ...rest] as Filter;
}

export function readState(search: URLSearchParams): ViewState {
  let filters: Filter[] = [];
  try {
    const parsed: unknown = JSON.parse(search.get('filters') ?? '[]');
    if (Array.isArray(parsed)) filters = (parsed.filter(Array.isArray) as Filter[]).map(withCountryCodes);
  } catch {
    filters = [];
  }
  const compareDays = [search.get('compare_from'), search.get('compare_to')].filter(isDay).sort();
  const [compareFrom, compareTo] = compareDays.length === 2 ? compareDays : [null, null];
  const compare = COMPARISONS.find((c) => c.value === search.get('compare'))?.value ?? 'off';
  const interval = INTERVALS.find((i) => i.value === search.get('interval'))?.value ?? null;
  return {
    ...periodOf(search),
    filters,
    compare: compare === 'custom' && !compareFrom ? 'off' : compare,
    compareFrom: compareFrom ?? null,
    compareTo: compareTo ?? null,
    matchDayOfWeek: search.get('match_day_of_week') === 'true',
    interval,
    imported: search.get('imported') !== 'false',
    metric: search.get('metric') ?? 'visitors',
  };
}

export function writeState(state: ViewState): string {
  const params = new URLSearchParams();
  if (state.period === 'custom' && state.from && state.to) {
    params.set('period', 'custom');
    params.set('from', state.from);
    params.set('to', state.to);
  } else if (state.period !== '28d') params.set('period', state.period);
  if (state.filters.length > 0) params.set('filters', JSON.stringify(state.filters));
  if (state.compare !== 'off') params.set('compare', state.compare);
  if (state.compare === 'custom' && state.compareFrom && state.compareTo) {
    params.set('compare_from', state.compareFrom);
    params.set('compare_to', state.compareTo);
  }
  if (state.matchDayOfWeek && state.compare !== 'off' && state.compare !== 'custom') params.set('match_day_of_week', 'true');
  if (state.interval) params.set('interval', state.interval);
  if (!state.imported) params.set('imported', 'false');
  if (state.metric !== 'visitors') params.set('metric', state.metric);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The query API's date_range for the view, `today` being the site's (periods.ts). */
export function dateRangeOf(state: ViewState, today: string): string | [string, string] {
  return state.period === 'custom' && state.from && state.to ? [state.from, state.to] : periodRange(state.period, today);
}

/** The query API's include.comparisons for the view, or null without a comparison. */
export function comparisonOf(state: ViewState): { mode: string; date_range?: [string, string]; match_day_of_week?: true } | null {
  if (state.compare === 'off') return null;
  if (state.compare === 'custom') return state.compareFrom && state.compareTo ? { mode: 'custom', date_range: [state.compareFrom, state.compareTo] } : null;
  return { mode: state.compare, ...(state.matchDayOfWeek ? { match_day_of_week: true } : {}) };
}

/**
 * The dimensions a filter can name, with their human names and the group the filter menu lists
 * them under (goals and custom properties come from the site, see FilterMenu.tsx).
 */
export const FILTER_DIMENSIONS: { dimension: string; label: string; group: string }[] = [
  { dimension: 'event:page', label: 'Page', group: 'Pages' },
  { dimension: 'visit:entry_page', label: 'Entry page', group: 'Pages' },
  { dimension: 'visit:exit_page', label: 'Exit page', group: 'Pages' },
  { dimension: 'event:page_title', label: 'Page title', group: 'Pages' },
  { dimension: 'event:hostname', label: 'Hostname', group: 'Pages' },
  { dimension: 'visit:source', label: 'Source', group: 'Sources' },
  { dimension: 'visit:referrer', label: 'Referrer', group: 'Sources' },
  { dimension: 'visit:channel', label: 'Channel', group: 'Sources' },
  { dimension: 'visit:utm_source', label: 'UTM source', group: 'Sources' },
  { dimension: 'visit:utm_medium', label: 'UTM medium', group: 'Sources' },
  { dimension: 'visit:utm_campaign', label: 'UTM campaign', group: 'Sources' },
  { dimension: 'visit:country', label: 'Country', group: 'Locations' },
  { dimension: 'visit:region', label: 'Region', group: 'Locations' },
  { dimension: 'visit:city', label: 'City', group: 'Locations' },
  { dimension: 'visit:language', label: 'Language', group: 'Locations' },
  { dimension: 'visit:browser', label: 'Browser', group: 'Devices' },
  { dimension: 'visit:browser_version', label: 'Browser version', group: 'Devices' },
  { dimension: 'visit:os', label: 'Operating system', group: 'Devices' },
  { dimension: 'visit:os_version', label: 'OS version', group: 'Devices' },
  { dimension: 'visit:screen', label: 'Screen size', group: 'Devices' },
  { dimension: 'visit:device', label: 'Device', group: 'Devices' },
  { dimension: 'event:name', label: 'Event', group: 'Events' },
  { dimension: 'event:goal', label: 'Goal', group: 'Events' },
];

export const OPERATOR_LABELS: Record<string, string> = {
  is: 'is',
  is_not: 'is not',
  contains: 'contains',
  contains_not: 'does not contain',
  matches: 'matches',
  matches_not: 'does not match',
};

export function dimensionLabel(dimension: string): string {
  if (dimension.startsWith('event:props:')) return `Property ${dimension.slice(12)}`;
  if (dimension === 'segment') return 'Segment';
  return FILTER_DIMENSIONS.find((d) => d.dimension === dimension)?.label ?? dimension;
}

/** The behavioural filters (docs/query-api.md "Filters"): whole visits that did, or never did, something. */
export type Behaviour = 'has_done' | 'has_not_done';

/**
 * Whether a visit can be asked to have done something on this dimension: the engine takes any
 * event dimension inside `has_done` (entry and exit pages belong to the visit, not to one event).
 */
export const isDeedDimension = (dimension: string) => dimension.startsWith('event:');

/** How a chip says what a visit did on the common event dimensions; others read "had an event whose …". */
const DEEDS: Record<string, { did: string; didNot: string; noun: string }> = {
  'event:page': { did: 'viewed', didNot: 'did not view', noun: 'page' },
  'event:goal': { did: 'reached', didNot: 'did not reach', noun: 'goal' },
  'event:name': { did: 'sent', didNot: 'did not send', noun: 'event' },
};

/** The verb for a behaviour on a dimension ("viewed", "did not reach", "had an event whose"). */
export function deedVerb(behaviour: Behaviour, dimension: string): string {
  const deed = DEEDS[dimension];
  if (deed) return behaviour === 'has_done' ? deed.did : deed.didNot;
  return behaviour === 'has_done' ? 'had an event whose' : 'had no event whose';
}

type Leaf = [string, string, unknown[], ...unknown[]];
const isLeaf = (filter: unknown): filter is Leaf =>
  Array.isArray(filter) && typeof filter[0] === 'string' && typeof filter[1] === 'string' && Array.isArray(filter[2]);

/** Whether a filter outside `has_done` / `has_not_done` (under `and`, `or`, `not` too) is on an event dimension. */
function filtersEvents(filters: readonly unknown[]): boolean {
  return filters.some((filter) => {
    if (isLeaf(filter)) return isDeedDimension(filter[1]);
    if (!Array.isArray(filter) || filter[0] === 'has_done' || filter[0] === 'has_not_done') return false;
    return filtersEvents(filter[0] === 'not' ? [filter[1]] : Array.isArray(filter[1]) ? filter[1] : []);
  });
}

/**
 * The metrics of a list that the engine answers beside these filters: views per visit and exit
 * rate count a whole visit's pages, so it refuses them beside a plain event filter (src/query/plan/resolve.ts
 * checkCompatibility); a behavioural filter keeps whole visits and leaves them be.
 */
export function metricsBeside(metrics: string[], filters: readonly unknown[]): string[] {
  return filtersEvents(filters) ? metrics.filter((metric) => metric !== 'views_per_visit' && metric !== 'exit_rate') : metrics;
}

const valuesText = ([, dimension, values]: Leaf) => values.map((value) => valueLabel(dimension, String(value))).join(' or ');

/**
 * A filter in words, as its chip shows it: "Page is /pricing", "Visits that reached goal Signup",
 * "Visits that did not view a page that contains /blog"; combinators read as "not (…)", "… or …".
 * Any filter the URL holds gets a sentence, so a hand-written view still shows what it filters.
 */
export function describeFilter(filter: unknown): string {
  if (isLeaf(filter)) return `${dimensionLabel(filter[1])} ${OPERATOR_LABELS[filter[0]] ?? filter[0]} ${valuesText(filter)}`;
  if (!Array.isArray(filter)) return JSON.stringify(filter);
  const [op, inner] = filter;
  if ((op === 'has_done' || op === 'has_not_done') && isLeaf(inner)) {
    const [innerOp, dimension] = inner;
    const verb = deedVerb(op, dimension);
    const deed = DEEDS[dimension];
    if (!deed) return `Visits that ${verb} ${describeFilter(inner).replace(/^\S/, (c) => c.toLowerCase())}`;
    if (innerOp === 'is') return `Visits that ${verb} ${deed.noun} ${valuesText(inner)}`;
    return `Visits that ${verb} a ${deed.noun} that ${OPERATOR_LABELS[innerOp] ?? innerOp} ${valuesText(inner)}`;
  }
  if (op === 'has_done' || op === 'has_not_done') return `Visits that ${op === 'has_done' ? 'did' : 'did not do'}: ${describeFilter(inner)}`;
  if (op === 'not') return `not (${describeFilter(inner)})`;
  if ((op === 'or' || op === 'and') && Array.isArray(inner)) return `(${inner.map(describeFilter).join(` ${op} `)})`;
  return JSON.stringify(filter);
}
