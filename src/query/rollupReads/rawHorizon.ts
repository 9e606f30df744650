import { badRequest } from '../../errors.js';
import { formatDate, toLocal } from '../../time/localTime.js';
import type { DateRange, SiteContext } from '../model.js';

/**
 * The raw horizon: a site that keeps raw events for a limited time (src/rollups/retention.ts) has
 * none before its `rawEventsFrom` mark, and only its daily roll-ups remember those days. A query
 * reading raw rows from before the mark would answer from what is left, so it is refused with what
 * to ask instead (docs/rollups.md, Retention); a query the roll-ups answer is not touched.
 */

/** Whether raw rows from `from` on are all kept. */
const kept = (site: SiteContext, from: number | null) => from === null || site.rawEventsFrom === null || from >= site.rawEventsFrom;

/** Whether every one of these ranges could be read raw: asked before giving up roll-ups for raw rows (rollupReads.ts). */
export const rawRowsCover = (site: SiteContext, ranges: DateRange[]) => ranges.every((range) => kept(site, range.first));

/**
 * Refuses raw rows read from `from` (null: none read) when the site deleted some of them. A query
 * may be asked so the roll-ups answer it (rollupReads.ts); funnels and journeys are always read raw.
 */
const REPORT_NAMES = { query: 'This query', funnel: 'The funnel report', journeys: 'The journeys report' } as const;

export function requireRawRows(site: SiteContext, from: number | null, report: keyof typeof REPORT_NAMES): void {
  if (kept(site, from)) return;
  const day = formatDate(toLocal(site.rawEventsFrom!, site.timezone));
  const instead =
    report === 'query'
      ? "ask a question the daily roll-ups can answer (whole days in the site's time zone; no custom properties, time on page, scroll depth, revenue or hourly buckets; see docs/rollups.md) or choose"
      : 'choose';
  throw badRequest(
    'raw_events_deleted',
    `${REPORT_NAMES[report]} needs raw events from before ${day}, but ${site.domain} deleted those once their days were rolled up (raw-event retention); ${instead} a range from ${day}.`,
  );
}
