import { afterAll, vi } from 'vitest';

/**
 * The files of a worker share its process and modules (vitest.config.ts, `isolate: false`): each leaves the environment,
 * the clock and the spies on shared objects as it found them (a mocked AWS client class is put back by its file:
 * aws-sdk-client-mock's restore()). Called by a project's setup file, after it has set the file's environment.
 */
export function leaveTheWorkerAsFound(andThen: () => void = () => undefined): void {
  const environmentAtStart = { ...process.env };
  afterAll(() => {
    for (const name of Object.keys(process.env)) if (!(name in environmentAtStart)) delete process.env[name];
    Object.assign(process.env, environmentAtStart);
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    andThen();
  });
}
