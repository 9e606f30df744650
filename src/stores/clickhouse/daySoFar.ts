import { DAY_KEYS, ROLLUP_AGGREGATES, type RollupFamily, type RollupTable, rollupSelect } from './dailyRollups.js';
import { FULL, windowColumns, windowTableName } from './rollupWindows.js';

/**
 * The day so far: a busy site's rows of the day after its last day rolled up (today), up to a cut
 * a few minutes back, grouped by each roll-up table's keys into window rows (rollupWindows.ts) of
 * their own slot, and merged again by each key column and by none as every window is. A range
 * ending today (`month`, `year`, `all`, custom ranges to today) reads a window; it reads these rows
 * in the same read, and raw only the rows after the cut, where it grouped all of today's raw rows
 * again in every statement (the ranking of a panel and the merge of its leading groups each did),
 * late in a busy day the larger part of such a range's cost (docs/benchmarks.md).
 *
 * The cut splits rows by their own timestamp, so the rows before it here and the raw ones after it
 * are the day's rows, each once: events before the cut; visit rows (the visits table's state and
 * cancel rows carry the visit's last activity) before the cut less the visit timeout, as no event
 * after the cut can continue a visit idle since then, nor write a cancel row for its state.
 */

/**
 * Each computation goes to the slot the published one is not in: its rows would otherwise replace
 * the published rows of the same groups as the table merges (ReplacingMergeTree on `computed`),
 * while queries still read them.
 */
export const DAY_SO_FAR_SLOTS = [30, 31] as const;

/** A day so far published for queries: its slot and computation, and the cut of each family's rows. */
export interface DaySoFar {
  slot: number;
  computed: number;
  /** Its rows are those before these instants (ms) of the day after the coverage's last day. */
  cuts: Record<RollupFamily, number>;
}

const seconds = (name: string) => `toDateTime({${name}:UInt32}, 'UTC')`;

/**
 * The day so far of a table, its FULL rows of computation `computed` in slot `slot`: the raw rows
 * after `until` and before the family's cut (`cut`), grouped by the table's keys, their day keys
 * `day`. Parameters: `site`, `until`, `cut`, `starts` (visits begun from then: the bound the
 * query's raw rows take, schema.ts earliestVisitStart), `tz`, `day`, `slot`, `computed`.
 */
export function daySoFarInsert(table: RollupTable): string {
  const keys = ['classification', ...table.keys.map((k) => k.column)];
  const aggregates = ROLLUP_AGGREGATES[table.family].map((a) => a.name);
  const rows = [
    'site_id = {site:UInt64}',
    `timestamp > ${seconds('until')}`,
    `timestamp < ${seconds('cut')}`,
    ...(table.family === 'sessions' ? [`start >= ${seconds('starts')}`] : []),
  ].join(' AND ');
  // Grouped by the keys alone: a window row has no day, and two rows of a group (a visit begun
  // yesterday and one begun today) would replace each other in the table.
  const grouped = rollupSelect(table, rows, '{tz:String}', { columns: [...keys, ...aggregates] });
  const outer = [
    'site_id',
    '0 AS days',
    '{slot:UInt8} AS slot',
    `'${FULL}' AS grouping`,
    ...DAY_KEYS[table.family].map((d) => `{day:Date} AS ${d.column}`),
    ...keys,
    ...aggregates,
    '{computed:UInt64} AS computed',
  ];
  return `INSERT INTO ${windowTableName(table)} (${windowColumns(table).join(', ')}) SELECT ${outer.join(', ')} FROM (${grouped})`;
}

/** Today's events of a site before the cut: a day so far is merged only where they are many. Parameters as daySoFarInsert's. */
export const DAY_SO_FAR_EVENTS_SQL = `SELECT count() AS events FROM events WHERE site_id = {site:UInt64} AND timestamp > ${seconds('until')} AND timestamp < ${seconds('cut')}`;

/**
 * Rows of a day so far are dropped two days after they were merged, as ClickHouse merges the table
 * (set by migration 16): a later computation replaces the rows of the groups it holds, and the
 * groups of an older day it does not hold would otherwise stay, read past by every query of the
 * site's slot. A computation is numbered by the time it began (src/rollups/coverageBook.ts
 * nextVersion, in ms of the system clock), which ages as the store's clock does.
 */
export const DAY_SO_FAR_TTL = `toDateTime(intDiv(computed, 1000), 'UTC') + toIntervalDay(2) DELETE WHERE slot IN (${DAY_SO_FAR_SLOTS.join(', ')})`;
