import type { Clock } from '../../shared/clock.ts';

/**
 * A clock that moves only when the test moves it, or when code sleeps on it: the sleep ends at once, the time moved on
 * (for code that sleeps one pause at a time).
 */
export class FakeClock implements Clock {
  private time: number;
  /** every pause asked for, in order */
  readonly sleeps: number[] = [];

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.time += ms;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}
