import { clickhouseTime, type SessionRow, sessionRow, VISIT_ATTRIBUTE_COLUMNS, type VisitAttributes } from '../rows.js';

export const SESSION_TIMEOUT_MS = 30 * 60_000;
const SESSION_TIMEOUT_S = SESSION_TIMEOUT_MS / 1000;

/** The visit attributes in column order (src/stores/clickhouse/columns.ts). */
export const VISIT_ATTRIBUTES = VISIT_ATTRIBUTE_COLUMNS;

/** What a non-engagement event brings to its visit. */
export interface VisitEvent {
  siteId: number;
  userId: string;
  timestamp: number;
  name: string;
  hostname: string;
  pathname: string;
  interactive: boolean;
  attributes: VisitAttributes;
  props: Record<string, string>;
  classification: string;
}

/**
 * A live visit in its compact form: what the next event needs and what rebuilds the visit's last
 * written row (its cancel row) byte for byte. Times are whole epoch seconds, as the `sessions`
 * table keeps them, so a visit read back from the store continues exactly as one kept in memory.
 */
export interface LiveVisit {
  siteId: number;
  userId: string;
  sessionId: string;
  /** Epoch seconds of the visit's first event (`start`). */
  start: number;
  /** Epoch seconds of the last written row (`timestamp`). */
  timestamp: number;
  /** Epoch seconds of the last activity, engagements included: it keeps a visit alive without changing it. */
  lastSeen: number;
  pageviews: number;
  /** Also the row's collapsing version (src/stores/clickhouse/schema.ts SESSIONS). */
  events: number;
  duration: number;
  isBounce: number;
  hostname: string;
  entryPage: string;
  exitPage: string;
  exitPageHostname: string;
  classification: string;
  /** `entry_props` as JSON text: parsing it back gives an object that encodes to the same bytes. */
  entryProps: string;
  attributes: VisitAttributes;
}

export const seconds = (epochMs: number) => Math.floor(epochMs / 1000);

/** Whether a visit last seen at `lastSeen` (seconds) can still be continued at `at` (epoch ms). */
export function isLive(lastSeen: number, at: number): boolean {
  return seconds(at) - lastSeen <= SESSION_TIMEOUT_S;
}

/** A visit begun by `event`. */
export function startVisit(event: VisitEvent, sessionId: string): LiveVisit {
  const isPageview = event.name === 'pageview';
  const at = seconds(event.timestamp);
  return {
    siteId: event.siteId,
    userId: event.userId,
    sessionId,
    start: at,
    timestamp: at,
    lastSeen: at,
    pageviews: isPageview ? 1 : 0,
    events: 1,
    duration: 0,
    // A visit that starts with an interactive custom event is engaged, not a bounce.
    isBounce: isPageview || !event.interactive ? 1 : 0,
    hostname: isPageview ? event.hostname : '',
    entryPage: isPageview ? event.pathname : '',
    exitPage: isPageview ? event.pathname : '',
    exitPageHostname: isPageview ? event.hostname : '',
    classification: event.classification,
    entryProps: JSON.stringify(event.props),
    attributes: event.attributes,
  };
}

/** The visit after one more non-engagement event. */
export function continueVisit(old: LiveVisit, event: VisitEvent): LiveVisit {
  const isPageview = event.name === 'pageview';
  const at = seconds(event.timestamp);
  const pageviews = old.pageviews + (isPageview ? 1 : 0);
  return {
    siteId: old.siteId,
    userId: old.userId,
    sessionId: old.sessionId,
    start: old.start,
    timestamp: Math.max(at, old.lastSeen),
    lastSeen: Math.max(at, old.lastSeen),
    pageviews,
    events: old.events + 1,
    duration: Math.abs(at - old.start),
    // Non-interactive events never un-bounce a visit; a second pageview or an interaction does.
    isBounce: old.isBounce === 1 && !(pageviews >= 2 || (event.interactive && !isPageview)) ? 1 : 0,
    hostname: old.hostname === '' && isPageview ? event.hostname : old.hostname,
    entryPage: old.entryPage === '' && isPageview ? event.pathname : old.entryPage,
    exitPage: isPageview ? event.pathname : old.exitPage,
    exitPageHostname: isPageview ? event.hostname : old.exitPageHostname,
    classification: old.classification,
    entryProps: old.entryProps,
    attributes: old.attributes,
  };
}

const EMPTY_PROPS = '{}';

/** The visit's row as last written (sign 1), or its cancel row (sign -1). */
export function visitRow(visit: LiveVisit, sign: 1 | -1): SessionRow {
  return sessionRow(
    {
      session_id: visit.sessionId,
      sign,
      site_id: visit.siteId,
      user_id: visit.userId,
      hostname: visit.hostname,
      timestamp: clickhouseTime(visit.timestamp * 1000),
      start: clickhouseTime(visit.start * 1000),
      is_bounce: visit.isBounce,
      entry_page: visit.entryPage,
      exit_page: visit.exitPage,
      exit_page_hostname: visit.exitPageHostname,
      pageviews: visit.pageviews,
      events: visit.events,
      duration: visit.duration,
      entry_props: visit.entryProps === EMPTY_PROPS ? {} : (JSON.parse(visit.entryProps) as Record<string, string>),
      classification: visit.classification,
    },
    visit.attributes,
  );
}

const epochSeconds = (clickhouseTime: string) => Date.parse(`${clickhouseTime.replace(' ', 'T')}Z`) / 1000;

/** The visit a stored row describes (the start-up read and the read-back of an evicted visit). */
export function visitFromRow(row: SessionRow, lastSeen: number): LiveVisit {
  return {
    siteId: Number(row.site_id),
    userId: String(row.user_id),
    sessionId: String(row.session_id),
    start: epochSeconds(row.start),
    timestamp: epochSeconds(row.timestamp),
    lastSeen: Math.max(lastSeen, epochSeconds(row.timestamp)),
    pageviews: Number(row.pageviews),
    events: Number(row.events),
    duration: Number(row.duration),
    isBounce: Number(row.is_bounce),
    hostname: row.hostname,
    entryPage: row.entry_page,
    exitPage: row.exit_page,
    exitPageHostname: row.exit_page_hostname,
    classification: row.classification,
    entryProps: JSON.stringify(row.entry_props),
    attributes: {
      referrer: row.referrer,
      referrer_source: row.referrer_source,
      click_id_param: row.click_id_param,
      utm_medium: row.utm_medium,
      utm_source: row.utm_source,
      utm_campaign: row.utm_campaign,
      utm_content: row.utm_content,
      utm_term: row.utm_term,
      channel: row.channel,
      country_code: row.country_code,
      subdivision1_code: row.subdivision1_code,
      subdivision2_code: row.subdivision2_code,
      city: row.city,
      screen_size: row.screen_size,
      device: row.device,
      operating_system: row.operating_system,
      operating_system_version: row.operating_system_version,
      browser: row.browser,
      browser_version: row.browser_version,
      language: row.language,
    },
  };
}
