/**
 * Time is a parameter everywhere: live traffic passes the system clock, historical imports pass
 * each event's timestamp, and tests pass a clock they move by hand instead of sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
