import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import { type IngestionStore, ingestionStore } from '../stores/clickhouse/ingestionStore.js';
import type { MetaDb } from '../stores/meta/database.js';
import { type ClassificationLists, describeClassificationLists, loadClassificationLists } from './classification/index.js';
import { trustedProxyList } from './clientAddress.js';
import { type GeoDatabase, openGeoDatabase } from './derive/geo.js';
import { HealthCounters } from './healthCounters.js';
import { IdempotencyKeys } from './idempotency.js';
import { restoreIdempotencyKeys } from './idempotencyRestore.js';
import { heldLine, Journal } from './journal.js';
import { replayJournals } from './journalReplay.js';
import { type LiveVisits, SessionTracker } from './liveVisits/index.js';
import { SLOTS_PER_CAPPED_VISIT, SpilledVisits } from './liveVisits/spilledVisits.js';
import type { Log } from './log.js';
import { type HeldEngagement, type HeldEngagements, OrphanEngagements } from './orphans.js';
import { type EventSink, IngestionPipeline } from './pipeline.js';
import { AddressRateLimiter } from './rateLimiter.js';
import { EphemeralSalts, StoredSalts } from './salts.js';
import { type SharedIngestionState, STATE_UNAVAILABLE } from './sharedState.js';
import { SiteDirectory } from './siteDirectory.js';
import { readBackVisits, restoreLiveVisits } from './visitRestore.js';
import { WriteBuffer } from './writeBuffer.js';

/** Everything collection needs, shared by live traffic and the historical import. */
export interface Ingestion {
  live: IngestionPipeline;
  /** A pipeline for replaying history: its own visits, salts and idempotency keys, no rate limit. */
  replay(): { pipeline: IngestionPipeline; finish(at: number): void };
  buffer: WriteBuffer;
  counters: HealthCounters;
  sites: SiteDirectory;
  /** Periodic work on the clock: flush when due, expire orphaned engagements, rotate salts. */
  tick(): Promise<void>;
  start(): void;
  close(): Promise<void>;
}

export interface IngestionDeps<Held extends HeldEngagements = HeldEngagements, Visits extends LiveVisits = LiveVisits> {
  config: Config;
  clock: Clock;
  meta: MetaDb;
  events: EventStore;
  log: Log;
  maxPendingEvents?: number;
  /** Told of every event about to be written (src/rollups/rollups.ts noteWrite). */
  noteWrite(siteId: number, at: number): void;
  /** Per-event state shared with other nodes (STATE_URL, src/state/ingestionState.ts); null or unset keeps it in this process. */
  state?: SharedIngestionState<Held, Visits> | null;
}

export async function createIngestion<Held extends HeldEngagements, Visits extends LiveVisits>(deps: IngestionDeps<Held, Visits>): Promise<Ingestion> {
  const { config, clock, log } = deps;
  const [lists, geo]: [ClassificationLists, GeoDatabase] = await Promise.all([
    loadClassificationLists({ listsDir: `${config.dataDir}/lists`, cacheDir: `${config.dataDir}/cache` }),
    openGeoDatabase(),
  ]);
  log.info(describeClassificationLists(lists), 'classification lists loaded');
  const store = ingestionStore(deps.events);
  const counters = new HealthCounters();
  const orphans = new OrphanEngagements();
  // With STATE_URL engagements wait in Redis for a visit begun on any node; this process's holder takes over while Redis does not answer.
  const sharedHeld = deps.state ? deps.state.heldEngagements(orphans) : null;
  const { journal, buffer } = await openJournal(deps, store, counters, sharedHeld ?? orphans, orphans);
  const sites = new SiteDirectory(deps.meta, clock);
  const salts = new StoredSalts(deps.meta);
  const trustedProxies = trustedProxyList(config.trustedProxies);
  const shared = {
    sites,
    lists,
    geo,
    counters,
    trustedProxies,
    trustedProxiesConfigured: config.trustedProxies.length > 0,
    sink: buffer,
    noteWrite: deps.noteWrite,
    log,
  };
  const { sessions, sharedVisits, liveVisitOptions, spill } = await openLiveVisits(deps, store, buffer, sharedHeld);
  const idempotency = new IdempotencyKeys();
  const keys = await restoreIdempotencyKeys(store, idempotency, clock.now());
  if (keys > 0) log.info({ keys }, 'restored idempotency keys');
  const ownRate = new AddressRateLimiter(clock);
  const live = new IngestionPipeline({
    ...shared,
    salts,
    sessions,
    orphans: sharedHeld ?? orphans,
    // Keys shared across nodes are claimed by the shared visits' own script.
    idempotency: deps.state && sharedVisits ? deps.state.idempotency(sharedVisits, idempotency) : idempotency,
    rateLimiter: deps.state?.rateLimiter(ownRate, clock) ?? ownRate,
    noteWrite: countingStateFallbacks(deps.state ?? null, counters, deps.noteWrite),
  });

  const expireOrphans = (holder: HeldEngagements, at: number) => expireHeld(holder, at, counters);

  let timer: NodeJS.Timeout | undefined;
  let lastHousekeeping = 0;
  const ingestion: Ingestion = {
    live,
    replay() {
      const held = new OrphanEngagements();
      const pipeline = new IngestionPipeline({
        ...shared,
        sink: historySink(buffer),
        salts: new EphemeralSalts(),
        sessions: new SessionTracker(liveVisitOptions),
        orphans: held,
        idempotency: new IdempotencyKeys(),
        rateLimiter: null,
      });
      // Whatever is still held when history ends has had its whole half hour.
      return { pipeline, finish: (at) => void expireOrphans(held, at + 30 * 60_000) };
    },
    buffer,
    counters,
    sites,
    async tick() {
      const now = clock.now();
      if (now - lastHousekeeping >= 10_000 || now < lastHousekeeping) {
        lastHousekeeping = now;
        buffer.release((await expireOrphans(sharedHeld ?? orphans, now)).map((held) => held.id));
        await salts.rotate(now).catch((error) => log.error({ err: error }, 'salt rotation failed'));
      }
      await buffer.tick();
    },
    start() {
      timer = setInterval(() => {
        ingestion.tick().catch((error) => log.error({ err: error }, 'ingestion housekeeping failed'));
      }, 100);
      timer.unref();
    },
    async close() {
      clearInterval(timer);
      await buffer.drain();
      await journal.close();
      spill?.close();
      geo.close?.();
    },
  };
  return ingestion;
}

/**
 * What a killed process accepted and the store never confirmed is written before anything else
 * is read from the store (live visits, idempotency keys) or accepted; then the journal opens for
 * this run's rows, behind the write buffer.
 */
async function openJournal(
  deps: Omit<IngestionDeps, 'state'>,
  store: IngestionStore,
  counters: HealthCounters,
  held: HeldEngagements,
  orphans: OrphanEngagements,
) {
  const { config, clock, log } = deps;
  const journalDir = join(config.dataDir, 'journal');
  const replayed = await replayJournals(journalDir, store);
  for (const record of replayed.held) held.restore(record);
  if (replayed.segments.length > 0) log.info({ rows: replayed.rows, held: replayed.held.length }, 'replayed the ingestion journal');
  const journal = new Journal(journalDir, log, () => Array.from(orphans.records(), heldLine));
  await journal.open(replayed.segments);
  const buffer = new WriteBuffer({ store, clock, counters, log, maxPendingEvents: deps.maxPendingEvents, journal });
  return { journal, buffer };
}

/** Live visits: in this process, or with STATE_URL shared by every node, warmed from the store when the shared state has none (src/state/liveVisits.ts). */
async function openLiveVisits<Held extends HeldEngagements, Visits extends LiveVisits>(
  deps: IngestionDeps<Held, Visits>,
  store: IngestionStore,
  buffer: WriteBuffer,
  sharedHeld: Held | null,
) {
  const { config, clock, log } = deps;
  // This process's tracker keeps visits that leave memory on disk first (a replay's or a fallback's tracker does not).
  const spill = deps.state
    ? undefined
    : new SpilledVisits(join(config.dataDir, 'live-visits', 'evicted.slots'), SLOTS_PER_CAPPED_VISIT * config.liveVisitsMax, log);
  // Visits past the cap leave memory and are read back through the ingestion connection, after a flush (src/ingest/liveVisits/tracker.ts).
  const liveVisitOptions = {
    max: config.liveVisitsMax,
    flush: () => buffer.flush(),
    writtenThrough: () => buffer.writtenThrough,
    readBack: (visitors: ReadonlyArray<{ siteId: number; userIds: string[] }>, since: number) => readBackVisits(store, visitors, since),
    log,
  };
  const sharedVisits =
    deps.state && sharedHeld
      ? deps.state.liveVisits(sharedHeld, () => new SessionTracker(liveVisitOptions), {
          warm: (into, now) => restoreLiveVisits(store, into, now),
          log,
        })
      : null;
  const sessions: LiveVisits = sharedVisits ?? new SessionTracker({ ...liveVisitOptions, spill });
  const restored = deps.state ? 0 : await restoreLiveVisits(store, sessions, clock.now());
  if (restored > 0) log.info({ visits: restored }, 'restored live visits');
  return { sessions, sharedVisits, liveVisitOptions, spill };
}

/**
 * Wraps ingestion's "event about to be written" hook (the one place that knows the site of each
 * accepted event) to count STATE_UNAVAILABLE per site while the shared state is degraded. Without
 * STATE_URL the hook is returned as it is, so the embedded mode pays nothing.
 */
function countingStateFallbacks(
  state: Pick<SharedIngestionState, 'degraded'> | null,
  counters: HealthCounters,
  noteWrite: (siteId: number, at: number) => void,
): (siteId: number, at: number) => void {
  if (state === null) return noteWrite;
  return (siteId, at) => {
    noteWrite(siteId, at);
    if (state.degraded) counters.count(siteId, at, STATE_UNAVAILABLE);
  };
}

/** Engagements whose visit never came, counted as `no_session_for_engagement`. */
function expireHeld(holder: HeldEngagements, at: number, counters: HealthCounters): HeldEngagement[] | Promise<HeldEngagement[]> {
  const count = (gone: HeldEngagement[]) => {
    for (const engagement of gone) counters.count(engagement.siteId, at, 'no_session_for_engagement');
    return gone;
  };
  // This process's holder answers at once, so history's last holds are counted before its import ends.
  const gone = holder.expire(at);
  return gone instanceof Promise ? gone.then(count) : count(gone);
}

/**
 * History is replayed from an upload that outlives a restart (src/ingest/historicalImport.ts), and
 * its engagements are held only while it runs: lines wait for no fsync and holds are not journaled.
 */
function historySink(buffer: WriteBuffer): EventSink {
  return {
    get hasRoom() {
      return buffer.hasRoom;
    },
    add: (events, sessionRows) => buffer.add(events, sessionRows),
    hold: () => {},
    release: () => {},
    durable: () => Promise.resolve(),
  };
}
