/**
 * How long a site may keep its raw events once their days are rolled up (docs/rollups.md,
 * Retention). Null keeps them forever, the default.
 *
 * At least 30 days: every report the daily roll-ups cannot answer (time on page, scroll depth,
 * custom properties, funnels, hourly charts…) still covers the `30d` and `month` ranges, a day is
 * rolled up only two hours after it ends, and a raw-event import can still reach the last month.
 * At most 3650 days (ten years): beyond that, "forever" says the same.
 */
export const RAW_RETENTION_DAYS = { min: 30, max: 3650 } as const;

export function isValidRawRetention(days: number | null): boolean {
  return days === null || (Number.isInteger(days) && days >= RAW_RETENTION_DAYS.min && days <= RAW_RETENTION_DAYS.max);
}

/** The sentence for a refused value. */
export function rawRetentionProblem(days: number): string {
  return `"raw_retention_days" must be a whole number of days from ${RAW_RETENTION_DAYS.min} to ${RAW_RETENTION_DAYS.max}, or null to keep raw events forever; got ${days}.`;
}
