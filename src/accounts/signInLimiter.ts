/**
 * Failed sign-ins counted per account address and per client address over a sliding window (a
 * client gets more, as several people may sign in from one office). A success clears the
 * address's count. Time comes from the injected clock.
 */
export const SIGN_IN_LIMIT = { windowMs: 15 * 60_000, perAccount: 10, perClient: 50 };

type MaybePromise<T> = T | Promise<T>;

/**
 * What the sign-in routes (account sign-in, shared-link passwords) ask. Answered at once by this
 * process's limiter, or after a round trip by the one every node shares (src/state/signInLimiter.ts,
 * with STATE_URL), so the routes await them all the same (as the ingestion pipeline does its
 * RateLimit, src/ingest/pipeline.ts).
 */
export interface SignInLimiter {
  /** Seconds until another attempt is allowed, or 0 when one is allowed now; keys with their own limits. */
  retryAfter(keys: [string, number][], now: number): MaybePromise<number>;
  failed(keys: string[], now: number): MaybePromise<void>;
  succeeded(key: string): MaybePromise<void>;
}

/**
 * This process's failures, in memory: a restart forgets them, which costs an attacker at most one
 * window. Several processes without STATE_URL each count their own, so with N of them the limit is
 * N times as loose.
 */
export function createSignInLimiter(limit: { windowMs: number } = SIGN_IN_LIMIT): SignInLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) => {
    const times = (failures.get(key) ?? []).filter((at) => at > now - limit.windowMs);
    if (times.length === 0) failures.delete(key);
    else failures.set(key, times);
    return times;
  };
  return {
    retryAfter(keys, now) {
      let wait = 0;
      for (const [key, failuresAllowed] of keys) {
        const times = recent(key, now);
        if (times.length >= failuresAllowed) wait = Math.max(wait, Math.ceil(((times[0] as number) + limit.windowMs - now) / 1000));
      }
      return wait;
    },
    failed(keys, now) {
      for (const key of keys) failures.set(key, [...recent(key, now), now]);
    },
    succeeded(key) {
      failures.delete(key);
    },
  };
}
