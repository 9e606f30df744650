import { NOT_SET } from '../contracts/query.js';

/**
 * The closed lists of the query language's dimensions and what each reads (metrics have their
 * registry, src/query/metrics.ts). Every SQL identifier the compiler emits comes from these
 * closed lists, never from a request.
 */

/**
 * A dimension (or filterable property): `column` is the raw value on an events or sessions row,
 * `emptyLabel` what an empty value is reported (and filtered) as. `scope` says which rows carry
 * it: visit attributes are copied onto every event row, entry and exit pages live only on sessions.
 */
export interface DimensionDef {
  scope: 'event' | 'visit' | 'session';
  column: string;
  emptyLabel: string | null;
}

const visit = (column: string, emptyLabel: string | null = NOT_SET): DimensionDef => ({ scope: 'visit', column, emptyLabel });

export const DIMENSIONS: Record<string, DimensionDef> = {
  'event:name': { scope: 'event', column: 'name', emptyLabel: null },
  'event:page': { scope: 'event', column: 'pathname', emptyLabel: null },
  'event:page_title': { scope: 'event', column: 'page_title', emptyLabel: null },
  'event:hostname': { scope: 'event', column: 'hostname', emptyLabel: null },
  'visit:source': visit('referrer_source', 'Direct / None'),
  'visit:referrer': visit('referrer', 'Direct / None'),
  'visit:channel': visit('channel', 'Direct'),
  'visit:utm_source': visit('utm_source'),
  'visit:utm_medium': visit('utm_medium'),
  'visit:utm_campaign': visit('utm_campaign'),
  'visit:utm_content': visit('utm_content'),
  'visit:utm_term': visit('utm_term'),
  'visit:country': visit('toString(country_code)', null),
  'visit:region': visit('subdivision1_code', null),
  'visit:city': visit('city', null),
  'visit:device': visit('device'),
  'visit:screen': visit('screen_size'),
  'visit:browser': visit('browser'),
  'visit:browser_version': visit('browser_version'),
  'visit:os': visit('operating_system'),
  'visit:os_version': visit('operating_system_version'),
  'visit:language': visit('language'),
  'visit:entry_page': { scope: 'session', column: 'entry_page', emptyLabel: null },
  'visit:exit_page': { scope: 'session', column: 'exit_page', emptyLabel: null },
  // Beyond the spec's list, as in the reference: the hostnames a visit entered and left on.
  'visit:entry_page_hostname': { scope: 'session', column: 'hostname', emptyLabel: null },
  'visit:exit_page_hostname': { scope: 'session', column: 'exit_page_hostname', emptyLabel: null },
};

/** Older names kept for integrations written against them. */
export const DIMENSION_ALIASES: Record<string, string> = {
  'visit:screen_size': 'visit:screen',
  'visit:device_type': 'visit:device',
  'event:path': 'event:page',
};

export const TIME_DIMENSIONS = ['time', 'time:minute', 'time:hour', 'time:day', 'time:week', 'time:month'] as const;
export type Interval = 'minute' | 'hour' | 'day' | 'week' | 'month';

export const PROPS_PREFIX = 'event:props:';

export type DimensionKind =
  | { kind: 'column'; def: DimensionDef }
  | { kind: 'prop'; prop: string }
  | { kind: 'goal' }
  | { kind: 'time'; interval: Interval | null };

/** Classify a (canonical) dimension name, or undefined when it is not one. */
export function dimensionKind(name: string): DimensionKind | undefined {
  // Own keys only: a name such as "toString" or "constructor" must not find Object's prototype.
  if (Object.hasOwn(DIMENSIONS, name)) return { kind: 'column', def: DIMENSIONS[name]! };
  if (name === 'event:goal') return { kind: 'goal' };
  if (name.startsWith(PROPS_PREFIX) && name.length > PROPS_PREFIX.length) return { kind: 'prop', prop: name.slice(PROPS_PREFIX.length) };
  if ((TIME_DIMENSIONS as readonly string[]).includes(name)) return { kind: 'time', interval: name === 'time' ? null : (name.slice(5) as Interval) };
  return undefined;
}

export function canonicalDimension(name: string): string {
  return Object.hasOwn(DIMENSION_ALIASES, name) ? DIMENSION_ALIASES[name]! : name;
}

/** Every dimension name a request may use, for error messages. */
export function dimensionChoices(): string {
  return [...Object.keys(DIMENSIONS), 'event:goal', 'event:props:<name>', ...TIME_DIMENSIONS, ...Object.keys(DIMENSION_ALIASES)].join(', ');
}

export const FILTER_OPERATORS = ['is', 'is_not', 'contains', 'contains_not', 'matches', 'matches_not'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
