import { createHash } from 'node:crypto';
import type { App } from '../../src/app.js';

/**
 * Small, exact event data sets written straight into the event store, with the visits they
 * make up derived the way ingestion does: a visit is a visitor's run of events with no gap over
 * 30 minutes; it takes its acquisition, location and device attributes from its first event,
 * which every event row then carries; engagement events join a visit but never change it.
 */
export interface FixtureEvent {
  visitor: string;
  /** UTC time: `2024-01-01 10:00:00` or any ISO form Date understands. */
  at: string;
  name?: string;
  page?: string;
  hostname?: string;
  title?: string;
  props?: Record<string, string>;
  revenue?: { amount: number; currency: string };
  /** Engagement events: 0–100, or absent (stored as 255). */
  scrollDepth?: number;
  engagementMs?: number;
  /** `false` marks a custom event that cannot un-bounce a visit. */
  interactive?: boolean;
  classification?: string;
  source?: string;
  referrer?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  channel?: string;
  country?: string;
  region?: string;
  city?: string;
  device?: string;
  screen?: string;
  browser?: string;
  browserVersion?: string;
  os?: string;
  osVersion?: string;
  language?: string;
}

const SESSION_TIMEOUT_MS = 30 * 60_000;

/** A stable, evenly spread 64-bit id (as ClickHouse's SAMPLE BY on user_id needs), in decimal. */
export function fixtureId(text: string): string {
  return BigInt(`0x${createHash('sha256').update(text).digest('hex').slice(0, 16)}`).toString();
}

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const parseAt = (at: string) => Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(at) ? at : `${at.replace(' ', 'T')}Z`);

function visitAttributes(first: FixtureEvent) {
  return {
    referrer: first.referrer ?? '',
    referrer_source: first.source ?? '',
    click_id_param: '',
    utm_medium: first.utmMedium ?? '',
    utm_source: first.utmSource ?? '',
    utm_campaign: first.utmCampaign ?? '',
    utm_content: '',
    utm_term: '',
    channel: first.channel ?? (first.source ? 'Referral' : 'Direct'),
    country_code: first.country ?? '',
    subdivision1_code: first.region ?? '',
    subdivision2_code: '',
    city: first.city ?? '',
    screen_size: first.screen ?? '',
    device: first.device ?? '',
    operating_system: first.os ?? '',
    operating_system_version: first.osVersion ?? '',
    browser: first.browser ?? '',
    browser_version: first.browserVersion ?? '',
    language: first.language ?? '',
  };
}

/** Events and session rows (one +1 row per visit, in its final state) for a site. */
export function buildRows(siteId: number, events: FixtureEvent[]) {
  const sorted = events.map((event) => ({ event, ms: parseAt(event.at) })).sort((a, b) => a.ms - b.ms);
  const byVisitor = new Map<string, { event: FixtureEvent; ms: number }[]>();
  for (const entry of sorted) byVisitor.set(entry.event.visitor, [...(byVisitor.get(entry.event.visitor) ?? []), entry]);

  const eventRows: Record<string, unknown>[] = [];
  const sessionRows: Record<string, unknown>[] = [];
  for (const [visitor, entries] of byVisitor) {
    const userId = fixtureId(`user:${visitor}`);
    type Visit = { id: string; entries: { event: FixtureEvent; ms: number }[]; last: number };
    let visit: Visit | null = null;
    const visits: Visit[] = [];
    for (const entry of entries) {
      const engagement = (entry.event.name ?? 'pageview') === 'engagement';
      if (!visit || (!engagement && entry.ms - visit.last > SESSION_TIMEOUT_MS)) {
        visit = { id: fixtureId(`session:${visitor}:${entry.ms}`), entries: [], last: entry.ms };
        visits.push(visit);
      }
      visit.entries.push(entry);
      if (!engagement) visit.last = entry.ms;
    }
    for (const { id, entries: visitEntries } of visits) {
      const counted = visitEntries.filter((e) => (e.event.name ?? 'pageview') !== 'engagement');
      const first = counted[0] ?? visitEntries[0]!;
      const attributes = visitAttributes(first.event);
      const classification = first.event.classification ?? '';
      for (const { event, ms } of visitEntries) {
        const name = event.name ?? 'pageview';
        eventRows.push({
          timestamp: stamp(ms),
          site_id: siteId,
          name,
          user_id: userId,
          session_id: id,
          hostname: event.hostname ?? 'example.com',
          pathname: event.page ?? '/',
          page_title: event.title ?? '',
          ...attributes,
          props: event.props ?? {},
          revenue_source_amount: event.revenue ? event.revenue.amount : null,
          revenue_source_currency: event.revenue?.currency ?? '',
          scroll_depth: name === 'engagement' ? (event.scrollDepth ?? 255) : 0,
          engagement_time: name === 'engagement' ? (event.engagementMs ?? 0) : 0,
          interactive: event.interactive === false ? 0 : 1,
          tracker_version: '',
          classification,
        });
      }
      if (counted.length === 0) continue;
      const pageviews = counted.filter((e) => (e.event.name ?? 'pageview') === 'pageview');
      const later = counted.slice(1);
      const unbounced = later.some((e) => (e.event.name ?? 'pageview') === 'pageview' || e.event.interactive !== false);
      const last = counted[counted.length - 1]!;
      sessionRows.push({
        session_id: id,
        sign: 1,
        site_id: siteId,
        user_id: userId,
        hostname: pageviews[0]?.event.hostname ?? (pageviews[0] ? 'example.com' : ''),
        timestamp: stamp(last.ms),
        start: stamp(first.ms),
        is_bounce: unbounced ? 0 : 1,
        entry_page: pageviews[0]?.event.page ?? (pageviews[0] ? '/' : ''),
        exit_page: pageviews.at(-1)?.event.page ?? (pageviews.length ? '/' : ''),
        exit_page_hostname: pageviews.at(-1)?.event.hostname ?? (pageviews.length ? 'example.com' : ''),
        pageviews: pageviews.length,
        events: counted.length,
        duration: Math.round((last.ms - first.ms) / 1000),
        ...attributes,
        entry_props: first.event.props ?? {},
        classification,
      });
    }
  }
  return { events: eventRows, sessions: sessionRows };
}

/** Build and insert the rows for a site through the ingestion connection. */
export async function insertEvents(app: App, siteId: number, events: FixtureEvent[]): Promise<void> {
  const rows = buildRows(siteId, events);
  // Written past ingestion, so the roll-ups are told as the pipeline tells them.
  for (const event of events) app.rollups.noteWrite(siteId, parseAt(event.at));
  if (rows.events.length) await app.events.ingest.insert({ table: 'events', values: rows.events, format: 'JSONEachRow' });
  if (rows.sessions.length) await app.events.ingest.insert({ table: 'sessions', values: rows.sessions, format: 'JSONEachRow' });
}

export interface FixtureGoal {
  eventName?: string;
  pagePath?: string;
  scrollThreshold?: number;
  displayName?: string;
  currency?: string;
}

/** A goal written straight to the metadata store (the management API is another module's). */
export async function addGoal(app: App, siteId: number, goal: FixtureGoal): Promise<void> {
  await app.meta.db
    .insertInto('goals')
    .values({
      site_id: siteId,
      event_name: goal.eventName ?? null,
      page_path: goal.pagePath ?? null,
      scroll_threshold: goal.scrollThreshold ?? -1,
      display_name: goal.displayName ?? goal.eventName ?? `Visit ${goal.pagePath}`,
      currency: goal.currency ?? null,
      created_at: app.clock.now(),
    })
    .execute();
}

/** Put classified events (bots, spam, …) of the given kinds back into a site's reports. */
export async function includeClassifications(app: App, siteId: number, reasons: string[]): Promise<void> {
  await app.meta.db
    .updateTable('sites')
    .set({ included_classifications: reasons.join(' ') })
    .where('id', '=', siteId)
    .execute();
}
