import type { Clock } from '../clock.js';
import type { LiveVisits } from './liveVisits/index.js';
import type { HeldEngagements } from './orphans.js';
import type { IdempotencyClaims, RateLimit } from './pipeline.js';
import type { SessionRow } from './rows.js';

/**
 * Ingestion's side of the per-event state nodes share (STATE_URL, docs/scaling.md "Shared state
 * (Redis)"). Ingestion owns these ports; src/state/ implements them and reaches ingestion only
 * through this module, and the composition root (src/app.ts) hands the implementation in, so
 * ingestion never imports src/state/. Each shared part is given this node's own part, which
 * answers while the shared state does not.
 *
 * `Held` and `Visits` are the implementation's own kinds: its live visits adopt the engagements
 * its holder keeps, and its idempotency keys are claimed by its visits' own script.
 */
export interface SharedIngestionState<Held extends HeldEngagements = HeldEngagements, Visits extends LiveVisits = LiveVisits> {
  /** True while this node answers from its own state because the shared one does not: its events count as STATE_UNAVAILABLE too. */
  readonly degraded: boolean;
  /** Engagements waiting for a visit begun on any node. */
  heldEngagements(local: HeldEngagements): Held;
  /** Live visits every node continues; `local` makes this node's tracker for an outage. */
  liveVisits(held: Held, local: () => LiveVisits, options: SharedLiveVisitsOptions): Visits;
  idempotency(visits: Visits, local: LocalIdempotencyKeys): IdempotencyClaims;
  /** The per-address rate, counted once across nodes. */
  rateLimiter(local: LocalRateLimit, clock: Clock): RateLimit;
}

export interface SharedLiveVisitsOptions {
  /** Reads the visits live at `now` from the store into `into` (src/ingest/visitRestore.ts restoreLiveVisits). */
  warm?: (into: { restore(row: SessionRow, startMs: number, lastSeen: number): void }, now: number) => Promise<number>;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** This node's own idempotency keys (src/ingest/idempotency.ts), synchronous. */
export interface LocalIdempotencyKeys {
  claim(siteId: number, key: string, at: number, commit: boolean): boolean;
}

/** This node's own token buckets (src/ingest/rateLimiter.ts), synchronous. */
export interface LocalRateLimit {
  take(address: string): boolean;
}

/**
 * The health-panel reason for an event a node accepted on its own state because the shared one
 * did not answer (src/ingest/outcomeGuide.ts explains it): its rate limit and duplicate check
 * then saw that node's traffic only.
 */
export const STATE_UNAVAILABLE = 'state_unavailable';

// What of ingestion an implementation follows: the visit rules its scripts mirror (compared on
// random event sequences by test/state/liveVisits.test.ts), the compact form it stores, the rows
// it answers with and the windows it keeps them for.
export { IDEMPOTENCY_WINDOW_MS } from './idempotency.js';
export {
  continueVisit,
  decodeLiveVisit,
  encodeLiveVisit,
  isLive,
  type LiveVisit,
  type LiveVisits,
  type RecordedVisit,
  SESSION_TIMEOUT_MS,
  startVisit,
  type VisitEvent,
  visitFromRow,
  visitRow,
} from './liveVisits/index.js';
export { seconds } from './liveVisits/visit.js';
export type { HeldEngagement, HeldEngagements } from './orphans.js';
export { type ClaimingVisits, DUPLICATE, type IdempotencyClaims, type RateLimit } from './pipeline.js';
export type { EventRow, SessionRow } from './rows.js';
