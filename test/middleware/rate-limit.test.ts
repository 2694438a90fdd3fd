/**
 * The per-api-key limit through real HTTP: an API emulator started in this worker with a limit of 5 requests per
 * 60 s window (the run's shared stack has the limit off, as its tests send hundreds of requests with one key).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const LIMIT = 5;
const WINDOW_S = 60;

vi.hoisted(() => {
  process.env.RATE_LIMIT_REQUESTS = '5';
  process.env.RATE_LIMIT_WINDOW_SECONDS = '60';
});

const { startApiEmulator } = await import('../../local/api-emulator.ts');
const { freePort } = await import('../../local/stack.ts');
const { createApi } = await import('../support/api.ts');
const { givenUser } = await import('../support/builders.ts');
const { createApiKey } = await import('../../shared/store/api-keys.ts');

let emulator: Awaited<ReturnType<typeof startApiEmulator>>;
const api = createApi(() => emulator.url);

beforeAll(async () => {
  emulator = await startApiEmulator({ port: await freePort() });
});
afterAll(() => emulator.close());

/** Windows are fixed: starting well inside one makes every request of a case count in the same window. */
async function awayFromWindowEdge(): Promise<void> {
  const intoWindowS = (Date.now() / 1000) % WINDOW_S;
  if (intoWindowS > WINDOW_S - 10) await sleep((WINDOW_S - intoWindowS + 0.5) * 1000);
}

const statuses = (answers: { status: number }[]) => answers.map((res) => res.status).sort();

describe('per-key rate limit', () => {
  it('answers 429 in the envelope once a key has used its requests in the window, even in parallel', async () => {
    // Prepare
    const user = await givenUser();
    await awayFromWindowEdge();
    // Act
    const answers = await Promise.all(Array.from({ length: LIMIT + 4 }, () => api.get('getVehicles', { api_key: user.key })));
    // Assess
    expect(statuses(answers)).toEqual([...Array(LIMIT).fill(200), ...Array(4).fill(429)]);
    expect(answers.find((res) => res.status === 429)).toBeError(429, 'too many requests for this api key, retry later');
  });

  it('counts each key on its own, so one busy tenant does not starve another', async () => {
    // Prepare
    const [busy, quiet] = [await givenUser(), await givenUser()];
    await awayFromWindowEdge();
    await Promise.all(Array.from({ length: LIMIT + 2 }, () => api.get('getVehicles', { api_key: busy.key })));
    // Act
    const res = await api.get('getVehicles', {}, { headers: { 'X-Api-Key': quiet.key } });
    // Assess
    expect(res).toBeSuccess();
  });

  it('counts the key wherever it is sent: header, query string or body', async () => {
    // Prepare
    const user = await givenUser();
    await awayFromWindowEdge();
    // Act
    const answers = [
      ...(await Promise.all(Array.from({ length: 2 }, () => api.get('getVehicles', {}, { headers: { 'X-Api-Key': user.key } })))),
      ...(await Promise.all(Array.from({ length: 2 }, () => api.get('getVehicles', { api_key: user.key })))),
      ...(await Promise.all(
        Array.from({ length: 3 }, () => api.post('addExpenseType', { api_key: user.key, expense_name: `T${Math.random()}` })),
      )),
    ];
    // Assess
    expect(statuses(answers)).toEqual([...Array(LIMIT).fill(200), 429, 429]);
  });

  it('limits a key, not a user: a second key of the same user has its own allowance', async () => {
    // Prepare
    const user = await givenUser();
    const secondKey = await createApiKey(user.userUid);
    await awayFromWindowEdge();
    await Promise.all(Array.from({ length: LIMIT + 1 }, () => api.get('getVehicles', { api_key: user.key })));
    // Act
    const res = await api.get('getVehicles', { api_key: secondKey });
    // Assess
    expect(res).toBeSuccess();
  });

  it('still answers 401 to an unknown key, not 429', async () => {
    await awayFromWindowEdge();
    const answers = await Promise.all(Array.from({ length: LIMIT + 2 }, () => api.get('getVehicles', { api_key: 'not-a-key' })));
    expect(answers.at(-1)).toBeError(401, 'unknown api key');
  });
});
