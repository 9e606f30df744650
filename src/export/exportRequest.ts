import type { ExportRangeQuery } from '../contracts/exports.js';
import { badRequest } from '../errors.js';
import { formatDate, parseIsoDate, toLocal } from '../time/localTime.js';
import type { ExportRange } from './siteExport.js';

/** The earliest day an export may start: ClickHouse's DateTime begins in 1970. */
const EARLIEST = '1970-01-02';

/**
 * The days to export: `from`/`to` when given (both inclusive), otherwise from the site's
 * creation day, or its first day of data when events were imported for earlier days, to today,
 * all in the site's time zone.
 */
export function exportRange(query: ExportRangeQuery, site: { timezone: string; createdAt: number }, firstDataAt: number | null, now: number): ExportRange {
  const today = formatDate(toLocal(now, site.timezone));
  const day = (value: string | undefined, name: string, fallback: string) => {
    if (value === undefined) return fallback;
    const parsed = parseIsoDate(value);
    if (!parsed) throw badRequest('invalid_date', `"${name}" must be a date such as 2024-01-31; got "${value}".`);
    return formatDate(parsed);
  };
  const from = day(query.from, 'from', formatDate(toLocal(Math.min(site.createdAt, firstDataAt ?? now, now), site.timezone)));
  const to = day(query.to, 'to', today);
  if (from < EARLIEST) throw badRequest('invalid_date', `"from" must be ${EARLIEST} or later.`);
  if (to > today) throw badRequest('invalid_date', `"to" cannot be after today (${today} in the site's time zone).`);
  if (from > to) throw badRequest('invalid_date', `"from" (${from}) is after "to" (${to}).`);
  return { from, to };
}
