/**
 * The sender's clock (shared/webhooks/sender.ts, SenderClock) moved by the test alone: an attempt's deadline and a
 * slot's wait end only when the test advances past them, so a test of a hanging endpoint waits for no real second.
 */
import type { SenderClock } from '../../shared/webhooks/sender.ts';

export interface ManualClock extends SenderClock {
  /** moves time on by `ms`, ending every deadline and wait due by then */
  advance(ms: number): void;
  /** deadlines and waits not yet due */
  pending(): number;
}

export function manualClock(start = Date.UTC(2026, 10, 28, 12)): ManualClock {
  let now = start;
  const timers: Array<{ at: number; fire: () => void }> = [];
  const at = (ms: number, fire: () => void) => timers.push({ at: now + ms, fire });
  return {
    now: () => now,
    after(ms) {
      const controller = new AbortController();
      at(ms, () => controller.abort(new DOMException('the attempt ran out of time', 'TimeoutError')));
      return controller.signal;
    },
    sleep: (ms) => new Promise((resolve) => at(ms, resolve)),
    advance(ms) {
      now += ms;
      const due = timers.filter((timer) => timer.at <= now);
      for (const timer of due) timers.splice(timers.indexOf(timer), 1);
      for (const timer of due) timer.fire();
    },
    pending: () => timers.length,
  };
}
