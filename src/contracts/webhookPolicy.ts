/** The numbers of the webhook part of the spec (Limits), in one place. */
export const MAX_RETRIES = 12;
export const FIRST_RETRY_MS = 30_000;
export const RETRY_FACTOR = 3;
export const MAX_RETRY_DELAY_MS = 6 * 3_600_000;
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const FAILING_THRESHOLD = 5;
export const STOP_THRESHOLD = 15;
export const LOGGED_RESPONSE_BYTES = 2048;
export const OLD_SECRET_VALIDITY_MS = 3_600_000;

/** Delay before retry number `retry` (1-based): 30 s, then ×3 each time, at most 6 hours. */
export function retryDelayMs(retry: number): number {
  return Math.min(FIRST_RETRY_MS * RETRY_FACTOR ** (retry - 1), MAX_RETRY_DELAY_MS);
}

/**
 * What happens after a failed attempt: with `attemptsMade` attempts done (the first plus the
 * retries used), either the time of the next retry, or null when all retries are used.
 */
export function nextRetryAt(attemptsMade: number, now: number): number | null {
  const retriesUsed = attemptsMade - 1;
  if (retriesUsed >= MAX_RETRIES) return null;
  return now + retryDelayMs(retriesUsed + 1);
}
