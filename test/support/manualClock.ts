import type { Clock } from '../../src/clock.js';

/** A clock that only moves when told to, so a test moves time by hand instead of sleeping. */
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
