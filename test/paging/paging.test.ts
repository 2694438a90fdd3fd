import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CURSOR } from '../../shared/contracts/paging.ts';
import { api } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { type IsolatedEmulator, startIsolatedEmulator } from '../support/isolated-emulator.ts';
import { type Fleet, givenFleet, growingOperations, walk } from './support.ts';

const TOO_LARGE = 'answer too large: narrow the date range or filter, or page with limit and cursor';
/** Small enough that every operation's answer for the fleet passes it, large enough for any one of its records. */
const SMALL_BUDGET_BYTES = 1_100;
const plain = { 'Accept-Encoding': 'identity' };

let fleet: Fleet;
let smallBudget: IsolatedEmulator;

beforeAll(async () => {
  [fleet, smallBudget] = await Promise.all([givenFleet(), startIsolatedEmulator({ ANSWER_BUDGET_BYTES: String(SMALL_BUDGET_BYTES) })]);
}, 60_000);
afterAll(() => smallBudget.stop());

const get = (operation: string, params: Record<string, string | number | undefined>) => api.get(operation, params);

describe.each(growingOperations)('$name paging', (operation) => {
  it('answers the spec fields and no next_cursor without limit or cursor', async () => {
    const res = await get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet) });
    expect(res).toBeSuccess();
    expect(operation.records(res.body).length).toBeGreaterThanOrEqual(2);
    expect(res.body).not.toHaveProperty('next_cursor');
  });

  it('walks pages of two to the same records as one unpaged answer, the last page without next_cursor', async () => {
    // Prepare
    const whole = await get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet) });
    // Act
    const pages = await walk(get, operation, fleet, { limit: 2 });
    // Assess
    for (const page of pages) expect(page).toBeSuccess();
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((page) => operation.records(page.body))).toEqual(operation.records(whole.body));
    expect(pages.at(-1)?.body).not.toHaveProperty('next_cursor');
  });

  it('refuses an answer over the budget before building it, in the envelope, with what to do', async () => {
    const res = await smallBudget.api.get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet) }, { headers: plain });
    expect(res).toBeError(422, TOO_LARGE);
  });

  it('ends pages at the budget when paging, and the walk still answers every record', async () => {
    // Prepare
    const whole = await get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet) });
    const smallGet = (name: string, params: Record<string, string | number | undefined>) =>
      smallBudget.api.get(name, params, { headers: plain });
    // Act
    const pages = await walk(smallGet, operation, fleet, { limit: 1000 });
    // Assess
    for (const page of pages) expect(page).toBeSuccess();
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.raw.length).toBeLessThan(SMALL_BUDGET_BYTES + 1024);
    expect(pages.flatMap((page) => operation.records(page.body))).toEqual(operation.records(whole.body));
  });

  it('refuses an altered cursor, one reused with other filters, and one from another user, revealing nothing', async () => {
    // Prepare
    const stranger = await givenUser();
    const first = await get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet), limit: 1 });
    const cursor: string = first.body.next_cursor;
    const flipped = `${cursor.slice(0, 20)}${cursor[20] === 'A' ? 'B' : 'A'}${cursor.slice(21)}`;
    // Act
    const answers = await Promise.all([
      get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet), cursor: flipped }),
      get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet), cursor: `${cursor}x` }),
      get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet), cursor: 'not-a-cursor' }),
      get(operation.name, { api_key: fleet.user.key, ...operation.otherParams(fleet), cursor }),
      get(operation.name, { api_key: stranger.key, ...operation.params(fleet), cursor }),
    ]);
    // Assess
    for (const answer of answers) {
      expect(answer).toBeError(400, INVALID_CURSOR);
      expect(Object.keys(answer.body)).toEqual(['version', 'result', 'error_msg']);
    }
  });
});

describe('cursors', () => {
  it("are bound to their operation: getVehicles' cursor does not page getLiveData", async () => {
    const first = await get('getVehicles', { api_key: fleet.user.key, limit: 1 });
    const res = await get('getLiveData', { api_key: fleet.user.key, cursor: first.body.next_cursor });
    expect(res).toBeError(400, INVALID_CURSOR);
  });

  it('refuses a limit outside 1 to the maximum with the message', async () => {
    for (const limit of ['0', '-1', '10001', 'ten', '1.5']) {
      expect(await get('getVehicles', { api_key: fleet.user.key, limit }), limit).toBeError(
        400,
        'limit must be an integer from 1 to 10000',
      );
    }
    expect(await get('getJobCards', { api_key: fleet.user.key, limit: 1001 })).toBeError(400, 'limit must be an integer from 1 to 1000');
  });

  it('reads an empty cursor as absent, as clients that send every parameter do', async () => {
    const res = await get('getVehicles', { api_key: fleet.user.key, cursor: '' });
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(3);
    expect(res.body).not.toHaveProperty('next_cursor');
  });

  it('gives a client that accepts gzip four times the budget: the answer refused in plain JSON is answered compressed', async () => {
    const res = await smallBudget.api.get('getLiveData', { api_key: fleet.user.key }, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(3);
  });
});
