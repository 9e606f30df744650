import type { QueryConfig } from '../../config/config.js';
import type { ExchangeRates } from '../exchangeRates.js';
import type { DateRange, GroupSet, ResolvedQuery } from '../model.js';
import type { ImportedSource } from '../plan/importedPlan.js';
import type { QueryRollups } from '../rollupReads/rollupReads.js';
import { type CompiledQuery, type PreparedQuery, prepareQuery } from '../sql/compile.js';
import { SqlParams } from '../sqlParams.js';
import type { Row, Statements } from './execute.js';
import { chooseSampleRate, type EventCounts } from './sampling.js';

/** What one range is read with: a page of it or every group, the groups it is restricted to. */
export interface ReadOptions {
  paginate: boolean;
  restrictTo?: string[][];
  among?: GroupSet;
}

/** One range's statement and the rows it answered. */
export interface Answer {
  compiled: CompiledQuery;
  rows: Row[];
}

/**
 * The statements of one query (src/query/run/engine.ts runQuery): each range prepared once and its
 * statements run, from roll-ups where they answer (src/query/rollupReads/), else raw and sampled
 * when the site is large.
 */
export interface QueryReads {
  /** Reads a range; a roll-up read refused for memory is read raw instead, as is every later one. */
  run(range: DateRange, options: ReadOptions): Promise<Answer>;
  /** The primary range's page, from its leading groups first where roll-ups allow (src/query/rollupReads/leadingGroups.ts). */
  primary(): Promise<Answer>;
  /** The fraction of visitors read (null: all of them), as the reads left it. */
  readonly sampleRate: number | null;
  /** Where the rows read came from. */
  readonly sources: ReadonlySet<string>;
}

export interface ReadSetup {
  q: ResolvedQuery;
  ranges: DateRange[];
  sql: Statements;
  rates: ExchangeRates;
  limits: QueryConfig;
  cluster: string | null;
  imported: ImportedSource | undefined;
  /** What the roll-ups answer of this query. */
  rollups: QueryRollups;
  /** The engine's counts of stored events, which the sample rate is chosen from. */
  eventCounts: EventCounts;
}

export async function openReads(setup: ReadSetup): Promise<QueryReads> {
  const { q, ranges, sql, rollups } = setup;
  const chooseRate = () => (q.exact ? null : chooseSampleRate(sql, setup.limits, q.site, ranges, setup.cluster, setup.eventCounts));
  /** A range with its sides placed and each one's source chosen, for every statement read of it. */
  const prepare = (range: DateRange, sampleRate: number | null) =>
    prepareQuery(
      { q, params: new SqlParams(), range, sampleRate },
      { rates: setup.rates, imported: setup.imported, rollups: rollups.range(q, range, sampleRate) },
    );
  const prepareAll = (sampleRate: number | null) => new Map(ranges.map((range) => [range, prepare(range, sampleRate)]));
  let prepared = prepareAll(null);
  // Roll-ups answer whole ranges exactly and fast, so a query they answer is never sampled; one
  // with a side read raw over a whole range is, and is prepared again for its sample: raw rows
  // scale their counts, where the roll-ups answer no sampled read.
  const fromRollups = [...prepared.values()].every((range) => range.rolledUp);
  let sampleRate = fromRollups ? null : await chooseRate();
  if (sampleRate !== null) prepared = prepareAll(sampleRate);
  const preparedFor = (range: DateRange): PreparedQuery => prepared.get(range) ?? prepare(range, sampleRate);
  const sources = new Set<string>();

  const run = async (range: DateRange, options: ReadOptions): Promise<Answer> => {
    const compiled = preparedFor(range).statement(options);
    rollups.requireRawRows(compiled.rawFrom);
    try {
      const rows = await sql(compiled.sql, compiled.params);
      compiled.sources.forEach((source) => sources.add(source));
      return { compiled, rows };
    } catch (error) {
      // Refused for memory, roll-ups give way to raw rows for this range and any comparison after
      // it (a comparison refused after its primary was answered is the one case read from both;
      // meta.sources then lists both).
      if (!compiled.sources.includes('rollup') || !rollups.readRawInstead(error, ranges)) throw error;
      sampleRate = await chooseRate();
      prepared = prepareAll(sampleRate);
      return run(range, options);
    }
  };

  const page = () => run(q.range, { paginate: true });
  // A breakdown by visitors from roll-ups reads its leading groups first.
  const leading = () =>
    rollups.leadingPage({
      q,
      imported: setup.imported !== undefined,
      prepared: preparedFor(q.range),
      sql,
      read: (among) => run(q.range, { paginate: true, among }),
    });

  return {
    run,
    primary: () => (fromRollups ? leading().then((answer) => answer ?? page()) : page()),
    get sampleRate() {
      return sampleRate;
    },
    sources,
  };
}
