import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type EventRow, type HeldEngagement, type HeldEngagements, SESSION_TIMEOUT_MS } from '../ingest/sharedState.js';
import { type SharedState, STATE_KEY_PREFIX, StateScript } from './redis.js';

/** Every (site, visitor) list of held engagements, scored by its earliest expiry, so any node's housekeeping finds what is due. */
export const HELD_DUE_KEY = `${STATE_KEY_PREFIX}held:due`;
export const heldKey = (siteId: number, userId: string) => `${STATE_KEY_PREFIX}held:${siteId}:${userId}`;
/** The in-process holder's bound (src/ingest/orphans.ts), here counted in visitors with something held. */
const MAX_HELD = 100_000;
/**
 * Redis drops a list only long after housekeeping should have counted it: expiry is counted by
 * housekeeping (once), Redis's own expiry only keeps a Redis nobody housekeeps from filling up.
 */
const HELD_KEEP_MS = 4 * SESSION_TIMEOUT_MS;
/** Lists looked at per housekeeping script run; the run repeats while it finds this many. */
const EXPIRE_BATCH = 500;

/**
 * An entry is "<expiresAt> <json>", so the scripts read the expiry without decoding JSON. One
 * list splits into the entries due at `now` (expiresAt <= now) and the rest, as
 * OrphanEngagements.adopt/expire do.
 */
const SPLIT = `
local function split(key, now)
  local entries = redis.call('LRANGE', key, 0, -1)
  local due, keep, earliest = {}, {}, nil
  for _, entry in ipairs(entries) do
    local expires = tonumber(string.match(entry, '^(%d+) '))
    if expires <= now then
      table.insert(due, entry)
    else
      table.insert(keep, entry)
      if earliest == nil or expires < earliest then earliest = expires end
    end
  end
  return entries, due, keep, earliest
end
`;

/** KEYS: the list, the due set. ARGV: expiresAt, entry, max, keep ms. 0 when full. */
const HOLD = new StateScript(`
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], 'LT', ARGV[1], KEYS[1])
return 1
`);

/**
 * Housekeeping: takes every held engagement due at ARGV[1] out of the lists the due set names as
 * due (ARGV[2] lists at most). Redis runs it alone, so of several nodes only one gets each entry
 * and `no_session_for_engagement` is counted once. The list names come from the set, so this
 * script (like the adoption in src/state/liveVisits.ts) assumes one Redis, not a Redis Cluster.
 */
const EXPIRE = new StateScript(`${SPLIT}
local now = tonumber(ARGV[1])
local gone = {}
for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))) do
  local entries, due, keep, earliest = split(key, now)
  for _, entry in ipairs(due) do table.insert(gone, entry) end
  redis.call('DEL', key)
  if #keep > 0 then
    redis.call('RPUSH', key, unpack(keep))
    redis.call('PEXPIRE', key, ARGV[3])
    redis.call('ZADD', KEYS[1], earliest, key)
  else
    redis.call('ZREM', KEYS[1], key)
  end
end
return gone
`);

/**
 * The part of the visit script (src/state/liveVisits.ts) that adopts: for each list (KEYS
 * from \`first\`), the engagements not yet due at \`now\` leave with the event; due ones stay to be counted.
 */
export const ADOPT = `${SPLIT}
local function adopt(lists, due_set, now, keep_ms, adopted)
  for _, key in ipairs(lists) do
    local entries, due, keep = split(key, now)
    if #entries > 0 and #due < #entries then
      for _, entry in ipairs(keep) do table.insert(adopted, entry) end
      redis.call('DEL', key)
      if #due > 0 then
        redis.call('RPUSH', key, unpack(due))
        redis.call('PEXPIRE', key, keep_ms)
      else
        redis.call('ZREM', due_set, key)
      end
    end
  end
end
`;
export { HELD_KEEP_MS };

const heldEntry = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  userId: z.string(),
  expiresAt: z.number(),
  row: z.custom<EventRow>((value) => typeof value === 'object' && value !== null),
});

export function encodeHeld(held: HeldEngagement): string {
  return `${held.expiresAt} ${JSON.stringify(held)}`;
}

export function decodeHeld(entry: string): HeldEngagement {
  return heldEntry.parse(JSON.parse(entry.slice(entry.indexOf(' ') + 1)));
}

/**
 * Engagements held for a visit not begun yet, in Redis (docs/scaling.md): one list per (site,
 * visitor), so an engagement that reached node B before its pageview reached node A is adopted
 * there. Adoption happens inside the visit script of src/state/liveVisits.ts, atomically with the
 * visit's event, and is handed to `adopt` through the event's visitor ids (the same object the
 * pipeline passes to both), so a pageview costs one round trip. While Redis does not answer,
 * this node's own holder (journaled) takes over.
 *
 * Ids of holds kept in Redis are negative: the pipeline journals every hold, and a journal
 * replayed after a crash must not bring back into this node's own holder an engagement that lives
 * in Redis (and may have been adopted by another node since).
 */
export class SharedHeldEngagements implements HeldEngagements {
  private readonly handedOver = new WeakMap<object, HeldEngagement[]>();

  constructor(
    private readonly state: SharedState,
    private readonly local: HeldEngagements,
  ) {}

  /** Called by the visit script's caller with the engagements its event adopted. */
  handOver(userIds: object, adopted: HeldEngagement[]): void {
    this.handedOver.set(userIds, adopted);
  }

  hold(siteId: number, userId: string, row: EventRow, at: number): HeldEngagement | null | Promise<HeldEngagement | null> {
    if (!this.state.usable) {
      this.state.skipped();
      return this.local.hold(siteId, userId, row, at);
    }
    return this.holdShared(siteId, userId, row, at);
  }

  private async holdShared(siteId: number, userId: string, row: EventRow, at: number): Promise<HeldEngagement | null> {
    const held: HeldEngagement = { id: -randomBytes(6).readUIntBE(0, 6) - 1, siteId, userId, row, expiresAt: at + SESSION_TIMEOUT_MS };
    const kept = await this.state.call((client) =>
      this.state.script(client, HOLD, [heldKey(siteId, userId), HELD_DUE_KEY], [held.expiresAt, encodeHeld(held), MAX_HELD, HELD_KEEP_MS]),
    );
    if (kept === undefined) return this.local.hold(siteId, userId, row, at);
    return kept === 1 ? held : null;
  }

  adopt(siteId: number, userIds: Iterable<string>, at: number): HeldEngagement[] | Promise<HeldEngagement[]> {
    const handed = this.handedOver.get(userIds);
    if (handed) {
      this.handedOver.delete(userIds);
      return handed;
    }
    // The visit was recorded on this node's own state (Redis did not answer).
    return this.local.adopt(siteId, userIds, at);
  }

  async expire(now: number): Promise<HeldEngagement[]> {
    const gone = [...(await this.local.expire(now))];
    for (let round = 0; round < 100; round++) {
      const entries = await this.state.call((client) => this.state.script(client, EXPIRE, [HELD_DUE_KEY], [now, EXPIRE_BATCH, HELD_KEEP_MS]));
      if (!Array.isArray(entries)) break;
      for (const entry of entries) if (typeof entry === 'string') gone.push(decodeHeld(entry));
      if (entries.length < EXPIRE_BATCH) break;
    }
    return gone;
  }

  restore(held: HeldEngagement): void {
    // A negative id was held in Redis, which still has it (see the class comment).
    if (held.id > 0) this.local.restore(held);
  }

  records(): Iterable<HeldEngagement> {
    return this.local.records();
  }
}
