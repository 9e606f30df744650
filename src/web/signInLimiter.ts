/**
 * Failed sign-ins counted per account address and per client address over a sliding window (a
 * client gets more, as several people may sign in from one office), kept in memory
 * (a restart forgets them, which costs an attacker at most one window; several processes each
 * count their own, so with N processes the limit is N times as loose). A success clears the
 * address's count. Time comes from the injected clock.
 */
export const SIGN_IN_LIMIT = { windowMs: 15 * 60_000, perAccount: 10, perClient: 50 };

export interface SignInLimiter {
  /** Seconds until another attempt is allowed, or 0 when one is allowed now; keys with their own limits. */
  retryAfter(keys: [string, number][], now: number): number;
  failed(keys: string[], now: number): void;
  succeeded(key: string): void;
}

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
