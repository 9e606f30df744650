import { randomBytes } from 'node:crypto';
import {
  continueVisit,
  DUPLICATE,
  decodeLiveVisit,
  encodeLiveVisit,
  isLive,
  type LiveVisit,
  type LiveVisits,
  type RecordedVisit,
  SESSION_TIMEOUT_MS,
  type SessionRow,
  type SharedLiveVisitsOptions,
  seconds,
  startVisit,
  type VisitEvent,
  visitFromRow,
  visitRow,
} from '../ingest/sharedState.js';
import { ADOPT, decodeHeld, HELD_DUE_KEY, HELD_KEEP_MS, heldKey, type SharedHeldEngagements } from './heldEngagements.js';
import { type SharedState, STATE_KEY_PREFIX, StateScript } from './redis.js';

export const visitKey = (siteId: number, userId: string) => `${STATE_KEY_PREFIX}visit:${siteId}:${userId}`;
/** Set once live visits were read from the store into this Redis; gone after Redis restarts empty. */
export const VISITS_WARM_KEY = `${STATE_KEY_PREFIX}visits:warm`;
const TIMEOUT_S = SESSION_TIMEOUT_MS / 1000;
/**
 * Whether a visit is live is decided in the script on the event's time (src/ingest/liveVisits/visit.ts
 * isLive); Redis's own expiry, a minute later for clocks that differ, only frees the memory.
 */
const VISIT_KEEP_MS = SESSION_TIMEOUT_MS + 60_000;
/** Visits written to Redis per pipelined batch while warming. */
const WARM_BATCH = 1_000;

/**
 * Finding the live visit among the visitor's keys: the compact form's fields (src/ingest/liveVisits/codec.ts)
 * are 1 session id, 2 start, 3 timestamp, 4 last seen, 5 pageviews, 6 events, 7 duration,
 * 8 is_bounce, 9 hostname, 10 entry page, 11 exit page, 12 exit page hostname, then what never
 * changes. 'cold' when nothing is found and Redis has not been warmed from the store.
 */
const FIND = `
local function find(n, at)
  for i = 1, n do
    local raw = redis.call('GET', KEYS[i])
    if raw then
      local visit = cjson.decode(raw)
      if at - visit[4] <= ${TIMEOUT_S} then return i, raw, visit end
    end
  end
  return nil
end
`;

/**
 * The event's idempotency key (src/state/idempotency.ts), when the script was given one at KEYS[k]:
 * claimed with SET NX before anything changes, so a key used already changes nothing (the event
 * is a duplicate) and, Redis running the script alone, of two nodes claiming one key exactly one
 * changes the visit. Claimed after the 'cold' answer, which is asked again once warmed.
 */
const CLAIM = `
local function used(k, window_ms)
  return #KEYS >= k and not redis.call('SET', KEYS[k], '1', 'PX', window_ms, 'NX')
end
`;

/**
 * One event of a visit, as one script Redis runs alone: two nodes never both start a visit for
 * one visitor, and two events of one visit never lose an update.
 * KEYS: the visit keys of the visitor ids (n), their held lists (n), the due set, the warm marker,
 * then the event's idempotency key if it has one.
 * ARGV: n, at (s), at (ms), pageview (1/0), interactive (1/0), hostname, pathname, the new
 * visit's compact form (used when none is live), visit keep ms, held keep ms, idempotency window ms.
 * Returns {'cold'}, {'duplicate'}, or {'new', adopted...}, or {'old', index, old form, new form, adopted...}.
 * The rules are continueVisit's (src/ingest/liveVisits/visit.ts); test/state/liveVisits.test.ts
 * compares the two on random event sequences.
 */
const RECORD = new StateScript(`${FIND}${ADOPT}${CLAIM}
local n = tonumber(ARGV[1])
local at = tonumber(ARGV[2])
local at_ms = tonumber(ARGV[3])
local pageview = ARGV[4] == '1'
local interactive = ARGV[5] == '1'
local i, raw, v = find(n, at)
if i == nil and redis.call('EXISTS', KEYS[2 * n + 2]) == 0 then return {'cold'} end
if used(2 * n + 3, ARGV[11]) then return {'duplicate'} end
local result
if i == nil then
  redis.call('SET', KEYS[1], ARGV[8], 'PX', ARGV[9])
  result = {'new'}
else
  local pageviews = v[5] + (pageview and 1 or 0)
  local last = math.max(at, v[4])
  v[3] = last
  v[4] = last
  v[5] = pageviews
  v[6] = v[6] + 1
  v[7] = math.abs(at - v[2])
  if v[8] == 1 and not (pageviews >= 2 or (interactive and not pageview)) then v[8] = 1 else v[8] = 0 end
  if pageview then
    if v[9] == '' then v[9] = ARGV[6] end
    if v[10] == '' then v[10] = ARGV[7] end
    v[11] = ARGV[7]
    v[12] = ARGV[6]
  end
  local encoded = cjson.encode(v)
  redis.call('SET', KEYS[i], encoded, 'PX', ARGV[9])
  result = {'old', tostring(i), raw, encoded}
end
local lists = {}
for j = 1, n do lists[j] = KEYS[n + j] end
adopt(lists, KEYS[2 * n + 1], at_ms, ARGV[10], result)
return result
`);

/**
 * An engagement: the live visit of any of the ids, kept alive (ARGV[3] = 1) without changing it.
 * KEYS: the visit keys (n), the warm marker, then the event's idempotency key if it has one.
 * ARGV: n, at (s), commit, visit keep ms, idempotency window ms.
 * Returns {index of the id, the visit's compact form}, '' when none is live, 'cold' or 'duplicate'.
 */
const TOUCH = new StateScript(`${FIND}${CLAIM}
local n = tonumber(ARGV[1])
local at = tonumber(ARGV[2])
local i, raw, v = find(n, at)
if i == nil and redis.call('EXISTS', KEYS[n + 1]) == 0 then return 'cold' end
if used(n + 2, ARGV[5]) then return 'duplicate' end
if i == nil then return '' end
if ARGV[3] == '1' then
  if at > v[4] then
    v[4] = at
    redis.call('SET', KEYS[i], cjson.encode(v), 'PX', ARGV[4])
  else
    redis.call('PEXPIRE', KEYS[i], ARGV[4])
  end
end
return {tostring(i), raw}
`);

/** An event's idempotency key, claimed by its visit script in the same call (src/state/idempotency.ts builds it). */
export interface VisitClaim {
  /** The key's name in Redis, set NX for `windowMs` before the script changes anything. */
  name: string;
  windowMs: number;
  /** Redis answered, claimed or used: this node's own keys learn the key too. */
  answered(): void;
  /** Redis did not answer: this node's own keys decide (remembering a first use); true when the key was used. */
  onLocal(): boolean;
}

const newSessionId = () => randomBytes(8).readBigUInt64BE().toString();
const text = (value: unknown) => (typeof value === 'string' ? value : String(value));

/**
 * Live visits in Redis when STATE_URL is set (docs/scaling.md): each visit's compact form
 * (src/ingest/liveVisits/codec.ts) under a key per (site, visitor id) that expires 30 minutes
 * after its last activity, changed by one script per event (one round trip, which also claims the
 * event's idempotency key, touchClaiming and recordClaiming; an engagement with no visit to join
 * costs a second, to hold it). The rows returned are the in-process tracker's:
 * the previous state cancelled byte for byte, then the new one.
 *
 * Redis down: this node's own tracker answers (counted as state_unavailable by the pipeline's
 * write hook, src/ingest/ingestion.ts). It starts empty at each outage and is dropped when
 * Redis answers again, so a visit it continued never overrides the shared one with an older
 * state; a visit in progress across an outage's edge is therefore split in two.
 * Redis restarted empty: the first event that finds no visit and no warm marker reads the live
 * visits from the store into Redis (SET NX, so a visit begun meanwhile by another node is kept),
 * sets the marker and runs again; events arriving meanwhile wait for that one read.
 */
export class SharedLiveVisits implements LiveVisits {
  private local: LiveVisits;
  private localInUse = false;
  private warming: Promise<void> | null = null;
  /** The store's visits were read into Redis, but the marker saying so did not get there. */
  private markerLost = false;

  constructor(
    private readonly state: SharedState,
    private readonly localTracker: () => LiveVisits,
    private readonly held: SharedHeldEngagements,
    private readonly options: SharedLiveVisitsOptions,
  ) {
    this.local = localTracker();
  }

  /** Visits held in this process: those of the fall-back tracker only. */
  get size(): number {
    return this.local.size;
  }

  restore(row: SessionRow, startMs: number, lastSeen: number): void {
    this.local.restore(row, startMs, lastSeen);
  }

  touch(siteId: number, userIds: Iterable<string>, at: number, commit = true): SessionRow | undefined | Promise<SessionRow | undefined> {
    if (!this.state.usable) return this.fallBack().touch(siteId, userIds, at, commit);
    return this.touchShared(siteId, [...userIds], at, commit, userIds, null);
  }

  record(event: VisitEvent, userIds: Iterable<string>, commit = true): RecordedVisit | Promise<RecordedVisit> {
    if (!this.state.usable) return this.fallBack().record(event, userIds, commit);
    return commit ? this.recordShared(event, [...userIds], userIds, null) : this.preview(event, [...userIds], userIds);
  }

  /** touch for a committed event whose idempotency key the same script claims (src/ingest/pipeline.ts ClaimingVisits). */
  touchClaiming(siteId: number, userIds: Iterable<string>, at: number, claim: VisitClaim): Promise<SessionRow | undefined | typeof DUPLICATE> {
    return this.touchShared(siteId, [...userIds], at, true, userIds, claim);
  }

  /** record for a committed event whose idempotency key the same script claims. */
  recordClaiming(event: VisitEvent, userIds: Iterable<string>, claim: VisitClaim): Promise<RecordedVisit | typeof DUPLICATE> {
    return this.recordShared(event, [...userIds], userIds, claim);
  }

  private touchShared(siteId: number, ids: string[], at: number, commit: boolean, userIds: Iterable<string>, claim: null): Promise<SessionRow | undefined>;
  private touchShared(
    siteId: number,
    ids: string[],
    at: number,
    commit: boolean,
    userIds: Iterable<string>,
    claim: VisitClaim,
  ): Promise<SessionRow | undefined | typeof DUPLICATE>;
  private async touchShared(
    siteId: number,
    ids: string[],
    at: number,
    commit: boolean,
    userIds: Iterable<string>,
    claim: VisitClaim | null,
  ): Promise<SessionRow | undefined | typeof DUPLICATE> {
    const keys = [...ids.map((id) => visitKey(siteId, id)), VISITS_WARM_KEY, ...(claim ? [claim.name] : [])];
    const args = [ids.length, seconds(at), commit ? 1 : 0, VISIT_KEEP_MS, ...(claim ? [claim.windowMs] : [])];
    const run = () => this.state.call((client) => this.state.script(client, TOUCH, keys, args));
    let answer = await run();
    if (answer === 'cold') {
      await this.warm(at);
      answer = await run();
    }
    if (answer !== DUPLICATE && answer !== '' && (!Array.isArray(answer) || answer.length !== 2)) {
      if (claim?.onLocal()) return DUPLICATE;
      return this.onLocal().touch(siteId, userIds, at, commit);
    }
    claim?.answered();
    this.backOnShared();
    if (answer === DUPLICATE) return DUPLICATE;
    if (!Array.isArray(answer)) return undefined;
    const [index, raw] = answer.map(text);
    return visitRow(decodeLiveVisit(siteId, ids[Number(index) - 1] ?? '', raw ?? ''), 1);
  }

  private recordShared(event: VisitEvent, ids: string[], userIds: Iterable<string>, claim: null): Promise<RecordedVisit>;
  private recordShared(event: VisitEvent, ids: string[], userIds: Iterable<string>, claim: VisitClaim): Promise<RecordedVisit | typeof DUPLICATE>;
  private async recordShared(event: VisitEvent, ids: string[], userIds: Iterable<string>, claim: VisitClaim | null): Promise<RecordedVisit | typeof DUPLICATE> {
    const started = startVisit(event, newSessionId());
    const keys = [
      ...ids.map((id) => visitKey(event.siteId, id)),
      ...ids.map((id) => heldKey(event.siteId, id)),
      HELD_DUE_KEY,
      VISITS_WARM_KEY,
      ...(claim ? [claim.name] : []),
    ];
    const args = [
      ids.length,
      seconds(event.timestamp),
      event.timestamp,
      event.name === 'pageview' ? 1 : 0,
      event.interactive ? 1 : 0,
      event.hostname,
      event.pathname,
      encodeLiveVisit(started),
      VISIT_KEEP_MS,
      HELD_KEEP_MS,
      ...(claim ? [claim.windowMs] : []),
    ];
    const run = () => this.state.call((client) => this.state.script(client, RECORD, keys, args));
    let answer = await run();
    if (Array.isArray(answer) && answer[0] === 'cold') {
      await this.warm(event.timestamp);
      answer = await run();
    }
    if (!Array.isArray(answer) || (answer[0] !== 'new' && answer[0] !== 'old' && answer[0] !== DUPLICATE)) {
      if (claim?.onLocal()) return DUPLICATE;
      return this.onLocal().record(event, userIds, true);
    }
    claim?.answered();
    this.backOnShared();
    if (answer[0] === DUPLICATE) return DUPLICATE;
    const entries = answer.map(text);
    let recorded: RecordedVisit;
    let adopted: string[];
    if (entries[0] === 'new') {
      const row = visitRow(started, 1);
      recorded = { session: row, rows: [row] };
      adopted = entries.slice(1);
    } else {
      const userId = ids[Number(entries[1]) - 1] ?? event.userId;
      const old = decodeLiveVisit(event.siteId, userId, entries[2] ?? '');
      const session = visitRow(decodeLiveVisit(event.siteId, userId, entries[3] ?? ''), 1);
      recorded = { session, rows: [visitRow(old, -1), session] };
      adopted = entries.slice(4);
    }
    this.held.handOver(userIds, adopted.map(decodeHeld));
    return recorded;
  }

  /** A debug request: what the event would do, read without changing anything (src/ingest/pipeline.ts `commit`). */
  private async preview(event: VisitEvent, ids: string[], userIds: Iterable<string>): Promise<RecordedVisit> {
    const stored = await this.state.call((client) => client.mget(...ids.map((id) => visitKey(event.siteId, id))));
    if (stored === undefined) return this.onLocal().record(event, userIds, false);
    for (const [i, raw] of stored.entries()) {
      if (!raw) continue;
      const visit = decodeLiveVisit(event.siteId, ids[i] ?? '', raw);
      if (!isLive(visit.lastSeen, event.timestamp)) continue;
      const session = visitRow(continueVisit(visit, event), 1);
      return { session, rows: [visitRow(visit, -1), session] };
    }
    const row = visitRow(startVisit(event, newSessionId()), 1);
    return { session: row, rows: [row] };
  }

  private fallBack(): LiveVisits {
    this.state.skipped();
    return this.onLocal();
  }

  private onLocal(): LiveVisits {
    this.localInUse = true;
    return this.local;
  }

  /** Redis answers again: what this node's own tracker knows is older than Redis, or unknown to it, so it is dropped. */
  private backOnShared(): void {
    if (!this.localInUse) return;
    this.localInUse = false;
    this.local = this.localTracker();
  }

  /**
   * Reads the store's live visits into Redis once per empty Redis; concurrent events share the
   * read. If the marker did not reach Redis (a timeout), the read is not repeated for the next
   * new visitor: the marker alone is set again.
   */
  private warm(now: number): Promise<void> {
    this.warming ??= (this.markerLost ? this.markWarm(now) : this.warmFromStore(now).then(() => this.markWarm(now))).finally(() => {
      this.warming = null;
    });
    return this.warming;
  }

  private async markWarm(now: number): Promise<void> {
    this.markerLost = (await this.state.call((client) => client.set(VISITS_WARM_KEY, String(now)))) === undefined;
  }

  private async warmFromStore(now: number): Promise<void> {
    const { warm, log } = this.options;
    let batch: LiveVisit[] = [];
    const writes: Promise<unknown>[] = [];
    const write = (visits: LiveVisit[]) =>
      this.state.call((client) => {
        const pipeline = client.pipeline();
        for (const visit of visits) {
          const keepMs = Math.max(1, (visit.lastSeen + TIMEOUT_S) * 1000 - now + 60_000);
          pipeline.set(visitKey(visit.siteId, visit.userId), encodeLiveVisit(visit), 'PX', keepMs, 'NX');
        }
        return pipeline.exec();
      });
    let restored = 0;
    try {
      restored =
        (await warm?.(
          {
            restore(row, _startMs, lastSeen) {
              batch.push(visitFromRow(row, seconds(lastSeen)));
              if (batch.length >= WARM_BATCH) {
                writes.push(write(batch));
                batch = [];
              }
            },
          },
          now,
        )) ?? 0;
      writes.push(write(batch));
      await Promise.all(writes);
    } catch (error) {
      // Marked warm all the same: retrying the read for every new visitor would stall ingestion.
      log.warn({ err: error }, 'reading live visits from the store into the shared state failed; visits in progress start again');
    }
    log.info({ visits: restored }, 'shared state had no live visits; read them from the store');
  }
}
