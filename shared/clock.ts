/**
 * Time as code that waits sees it: the system's, or a test's that moves only when the test says, so a backoff or a
 * budget is tested on fake time instead of waited out.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
