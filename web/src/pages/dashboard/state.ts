import type { Filter } from './context';

/** The whole view lives in the URL, so any view can be bookmarked and back/forward work. */
export interface ViewState {
  period: string;
  from: string | null;
  to: string | null;
  filters: Filter[];
  compare: 'off' | 'previous_period' | 'year_over_year';
  metric: string;
}

export const PERIODS: { value: string; label: string; key?: string }[] = [
  { value: 'realtime', label: 'Realtime', key: 'r' },
  { value: 'day', label: 'Today', key: 'd' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days', key: 'w' },
  { value: '28d', label: 'Last 28 days', key: 't' },
  { value: '91d', label: 'Last 91 days' },
  { value: 'month', label: 'This month', key: 'm' },
  { value: 'last_month', label: 'Last month' },
  { value: 'year', label: 'This year', key: 'y' },
  { value: '12mo', label: 'Last 12 months' },
  { value: 'all', label: 'All time', key: 'a' },
];

export function readState(search: URLSearchParams): ViewState {
  let filters: Filter[] = [];
  try {
    const parsed: unknown = JSON.parse(search.get('filters') ?? '[]');
    if (Array.isArray(parsed)) filters = parsed.filter(Array.isArray) as Filter[];
  } catch {
    filters = [];
  }
  const compare = search.get('compare');
  return {
    period: search.get('period') ?? (search.get('from') ? 'custom' : '28d'),
    from: search.get('from'),
    to: search.get('to'),
    filters,
    compare: compare === 'previous_period' || compare === 'year_over_year' ? compare : 'off',
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
  if (state.metric !== 'visitors') params.set('metric', state.metric);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The query API's date_range for the view. */
export function dateRangeOf(state: ViewState): string | [string, string] {
  return state.period === 'custom' && state.from && state.to ? [state.from, state.to] : state.period;
}

/** Human names of the dimensions a filter chip names. */
export const DIMENSION_LABELS: Record<string, string> = {
  'event:page': 'Page',
  'event:hostname': 'Hostname',
  'event:goal': 'Goal',
  'event:name': 'Event',
  'visit:entry_page': 'Entry page',
  'visit:exit_page': 'Exit page',
  'visit:source': 'Source',
  'visit:referrer': 'Referrer',
  'visit:channel': 'Channel',
  'visit:utm_source': 'UTM source',
  'visit:utm_medium': 'UTM medium',
  'visit:utm_campaign': 'UTM campaign',
  'visit:country': 'Country',
  'visit:region': 'Region',
  'visit:city': 'City',
  'visit:browser': 'Browser',
  'visit:browser_version': 'Browser version',
  'visit:os': 'Operating system',
  'visit:os_version': 'OS version',
  'visit:device': 'Device',
};

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
  return DIMENSION_LABELS[dimension] ?? dimension;
}
