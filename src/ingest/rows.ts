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
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}
