import { randomBytes } from 'node:crypto';
import { createSignInLimiter, SIGN_IN_LIMIT, type SignInLimiter } from '../accounts/signInLimiter.js';
import { type SharedState, STATE_KEY_PREFIX, StateScript } from './redis.js';

/**
 * For each key (ARGV: window, now, then the allowed failures per key): forget failures older than
 * the window, and answer the longest wait in seconds until the oldest counted failure leaves it.
 */
const RETRY_AFTER = new StateScript(`
local window = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local allowed = tonumber(ARGV[i + 2])
  if redis.call('ZCARD', key) >= allowed then
    local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
    wait = math.max(wait, math.ceil((oldest + window - now) / 1000))
  end
end
return wait
`);

/**
 * Failed sign-ins per account and client address in Redis sorted sets (score: when), so every
 * node counts against the same limit (src/accounts/signInLimiter.ts counts per process, N times as
 * loose with N nodes). While Redis does not answer, this node's own limiter decides; it also
 * counts every failure, so an outage starts from what this node saw.
 */
export function sharedSignInLimiter(state: SharedState, local: SignInLimiter, limit: { windowMs: number } = SIGN_IN_LIMIT): SignInLimiter {
  const name = (key: string) => `${STATE_KEY_PREFIX}signin:${key}`;
  return {
    async retryAfter(keys, now) {
      const wait = await state.call((client) =>
        state.script(
          client,
          RETRY_AFTER,
          keys.map(([key]) => name(key)),
          [limit.windowMs, now, ...keys.map(([, allowed]) => allowed)],
        ),
      );
      return typeof wait === 'number' ? wait : local.retryAfter(keys, now);
    },
    async failed(keys, now) {
      await local.failed(keys, now);
      await state.call((client) => {
        const batch = client.multi();
        // A member per failure: two failing at the same millisecond are two failures.
        for (const key of keys) batch.zadd(name(key), now, `${now}:${randomBytes(6).toString('hex')}`).pexpire(name(key), limit.windowMs);
        return batch.exec();
      });
    },
    async succeeded(key) {
      await local.succeeded(key);
      await state.call((client) => client.del(name(key)));
    },
  };
}

/** The node's one sign-in limiter (src/app.ts): shared across nodes with STATE_URL, else this process's own (unchanged, synchronous). */
export function signInLimiterFor(state: SharedState | null): SignInLimiter {
  return state === null ? createSignInLimiter() : sharedSignInLimiter(state, createSignInLimiter());
}
