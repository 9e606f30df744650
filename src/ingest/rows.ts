/** Rows exactly as the `events` and `sessions` tables take them (JSONEachRow). */

/** Attributes a visit takes from its first event; every event row carries a copy. */
export interface VisitAttributes {
  referrer: string;
  referrer_source: string;
  click_id_param: string;
  utm_medium: string;
  utm_source: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
  channel: string;
  country_code: string;
  subdivision1_code: string;
  subdivision2_code: string;
  city: string;
  screen_size: string;
  device: string;
  operating_system: string;
  operating_system_version: string;
  browser: string;
  browser_version: string;
  language: string;
}

export interface EventRow extends VisitAttributes {
  /** 'YYYY-MM-DD HH:MM:SS' in UTC. */
  timestamp: string;
  site_id: number;
  name: string;
  /** 64-bit unsigned integers travel as decimal strings. */
  user_id: string;
  session_id: string;
  hostname: string;
  pathname: string;
  page_title: string;
  props: Record<string, string>;
  revenue_source_amount: string | null;
  revenue_source_currency: string;
  scroll_depth: number;
  engagement_time: number;
  interactive: number;
  tracker_version: string;
  classification: string;
  /** `k`, lower-cased, or '' when the request had none. */
  idempotency_key: string;
}

export interface SessionRow extends VisitAttributes {
  session_id: string;
  sign: 1 | -1;
  site_id: number;
  user_id: string;
  hostname: string;
  timestamp: string;
  start: string;
  is_bounce: number;
  entry_page: string;
  exit_page: string;
  exit_page_hostname: string;
  pageviews: number;
  events: number;
  duration: number;
  entry_props: Record<string, string>;
  classification: string;
}

/** ClickHouse DateTime text for an epoch-millisecond instant (seconds precision, UTC). */
export function clickhouseTime(epochMs: number): string {
  // Live traffic asks for the same second many times over: the last answer is kept.
  const second = Math.floor(epochMs / 1000);
  if (second !== lastTime.second) lastTime = { second, text: new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ') };
  return lastTime.text;
}
let lastTime = { second: Number.NaN, text: '' };

const VISIT_ATTRIBUTE_COLUMNS = [
  'referrer',
  'referrer_source',
  'click_id_param',
  'utm_medium',
  'utm_source',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'channel',
  'country_code',
  'subdivision1_code',
  'subdivision2_code',
  'city',
  'screen_size',
  'device',
  'operating_system',
  'operating_system_version',
  'browser',
  'browser_version',
  'language',
] as const satisfies ReadonlyArray<keyof VisitAttributes>;

/** Column order of an encoded `events` row; every field of EventRow, once. */
export const EVENT_COLUMNS = [
  'timestamp',
  'site_id',
  'name',
  'user_id',
  'session_id',
  'hostname',
  'pathname',
  'page_title',
  ...VISIT_ATTRIBUTE_COLUMNS,
  'props',
  'revenue_source_amount',
  'revenue_source_currency',
  'scroll_depth',
  'engagement_time',
  'interactive',
  'tracker_version',
  'classification',
  'idempotency_key',
] as const satisfies ReadonlyArray<keyof EventRow>;

/** Column order of an encoded `sessions` row; every field of SessionRow, once. */
export const SESSION_COLUMNS = [
  'session_id',
  'sign',
  'site_id',
  'user_id',
  'hostname',
  'timestamp',
  'start',
  'is_bounce',
  'entry_page',
  'exit_page',
  'exit_page_hostname',
  'pageviews',
  'events',
  'duration',
  ...VISIT_ATTRIBUTE_COLUMNS,
  'entry_props',
  'classification',
] as const satisfies ReadonlyArray<keyof SessionRow>;

/**
 * One row as a JSONCompactEachRow line (values in column order, no names). Rows are encoded the
 * moment they are buffered: the buffer then holds flat strings rather than objects that outlive
 * many garbage collections, and ClickHouse parses half the bytes.
 */
export function encodeRow<T>(row: T, columns: ReadonlyArray<keyof T>): string {
  return JSON.stringify(columns.map((column) => row[column]));
}

export type EventFields = Omit<EventRow, keyof VisitAttributes>;
export type SessionFields = Omit<SessionRow, keyof VisitAttributes>;

// The two builders below list every field in one literal on purpose: a spread followed by more
// properties makes V8 add them one transition at a time, which was the costliest step of ingestion.

/** An event row: its own fields, its visit's attributes, and the visit it belongs to. */
export function eventRow(e: EventFields, v: VisitAttributes, visit: { session_id: string; user_id: string; classification: string } = e): EventRow {
  return {
    timestamp: e.timestamp,
    site_id: e.site_id,
    name: e.name,
    user_id: visit.user_id,
    session_id: visit.session_id,
    hostname: e.hostname,
    pathname: e.pathname,
    page_title: e.page_title,
    referrer: v.referrer,
    referrer_source: v.referrer_source,
    click_id_param: v.click_id_param,
    utm_medium: v.utm_medium,
    utm_source: v.utm_source,
    utm_campaign: v.utm_campaign,
    utm_content: v.utm_content,
    utm_term: v.utm_term,
    channel: v.channel,
    country_code: v.country_code,
    subdivision1_code: v.subdivision1_code,
    subdivision2_code: v.subdivision2_code,
    city: v.city,
    screen_size: v.screen_size,
    device: v.device,
    operating_system: v.operating_system,
    operating_system_version: v.operating_system_version,
    browser: v.browser,
    browser_version: v.browser_version,
    language: v.language,
    props: e.props,
    revenue_source_amount: e.revenue_source_amount,
    revenue_source_currency: e.revenue_source_currency,
    scroll_depth: e.scroll_depth,
    engagement_time: e.engagement_time,
    interactive: e.interactive,
    tracker_version: e.tracker_version,
    classification: visit.classification,
    idempotency_key: e.idempotency_key,
  };
}

/** A session row: its own fields and the attributes its first event fixed. */
export function sessionRow(s: SessionFields, v: VisitAttributes, sign: 1 | -1 = s.sign): SessionRow {
  return {
    session_id: s.session_id,
    sign,
    site_id: s.site_id,
    user_id: s.user_id,
    hostname: s.hostname,
    timestamp: s.timestamp,
    start: s.start,
    is_bounce: s.is_bounce,
    entry_page: s.entry_page,
    exit_page: s.exit_page,
    exit_page_hostname: s.exit_page_hostname,
    pageviews: s.pageviews,
    events: s.events,
    duration: s.duration,
    referrer: v.referrer,
    referrer_source: v.referrer_source,
    click_id_param: v.click_id_param,
    utm_medium: v.utm_medium,
    utm_source: v.utm_source,
    utm_campaign: v.utm_campaign,
    utm_content: v.utm_content,
    utm_term: v.utm_term,
    channel: v.channel,
    country_code: v.country_code,
    subdivision1_code: v.subdivision1_code,
    subdivision2_code: v.subdivision2_code,
    city: v.city,
    screen_size: v.screen_size,
    device: v.device,
    operating_system: v.operating_system,
    operating_system_version: v.operating_system_version,
    browser: v.browser,
    browser_version: v.browser_version,
    language: v.language,
    entry_props: s.entry_props,
    classification: s.classification,
  };
}
