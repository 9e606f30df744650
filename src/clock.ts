/**
 * Time is a parameter everywhere: live traffic passes the system clock, historical imports pass
 * each event's timestamp, and tests pass a clock they move by hand instead of sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for tests and replays. */
export class ManualClock implements Clock {
  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  set(epochMs: number | string | Date): void {
    this.current = new Date(epochMs).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
