/** Idempotency-Key on every create, through real HTTP: retries answer the first answer and create nothing new. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { operations } from '../../functions/registry.ts';
import { type ApiResponse, api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenFuelFill } from '../support/expense-slips-builders.ts';
import { aJobCardPayload } from '../support/job-card-builders.ts';
import { anOperator } from '../support/operators-builders.ts';
import { rawStops, stopsText } from '../support/routes-builders.ts';
import { PUBLIC_URL } from '../support/webhook-builders.ts';

type Params = Record<string, string | number | undefined>;

type Send = (headers: Record<string, string>) => Promise<ApiResponse>;

interface CreateCase {
  /** the create's request for this user; `variant` changes one field */
  request: (user: TestUser, variant?: boolean) => Promise<Send>;
  /** a request that passes validation and fails in the handler, once the key is claimed (none for a create that cannot) */
  failing?: (user: TestUser) => Promise<Send>;
  /** how many of these records the user has (getExpenseTypes also lists Fuel, so tests compare with a count before) */
  count: (user: TestUser) => Promise<number>;
}

const listed =
  (operation: string, params: Params = {}) =>
  async (user: TestUser) =>
    (await api.get(operation, { api_key: user.key, ...params })).body.cnt as number;

const post = (operation: string, params: Params) => async (headers: Record<string, string>) => api.post(operation, params, { headers });

const vehicles = new Map<number, number>();
const vehicleOf = async (user: TestUser) => {
  if (!vehicles.has(user.userUid)) vehicles.set(user.userUid, (await givenVehicle(user)).vehicleUid);
  return vehicles.get(user.userUid) as number;
};
/** each user's one detected fill, on a vehicle of its own */
const fills = new Map<number, { eventUid: number; vehicleUid: number }>();
const fillOf = async (user: TestUser) => {
  if (!fills.has(user.userUid)) {
    const vehicle = await givenVehicle(user);
    fills.set(user.userUid, { eventUid: await givenFuelFill(vehicle, { at: '2026-11-01T07:12:44.000Z' }), vehicleUid: vehicle.vehicleUid });
  }
  return fills.get(user.userUid) as { eventUid: number; vehicleUid: number };
};

const creates: Record<string, CreateCase> = {
  addExpenseType: {
    request: async (user, variant) => post('addExpenseType', { api_key: user.key, expense_name: variant ? 'Parking' : 'Tolls' }),
    failing: async (user) => {
      await api.post('addExpenseType', { api_key: user.key, expense_name: 'Tolls' });
      return post('addExpenseType', { api_key: user.key, expense_name: 'Tolls' });
    },
    count: listed('getExpenseTypes'),
  },
  addExpenseSlip: {
    request: async (user, variant) =>
      post('addExpenseSlip', {
        api_key: user.key,
        vehicle_uid: await vehicleOf(user),
        type: 2,
        amount: variant ? '1.00' : '850.40',
        event_datetime: '2026-11-01 07:30:00',
      }),
    failing: async (user) =>
      post('addExpenseSlip', { api_key: user.key, vehicle_uid: 999_999_999, type: 2, amount: '1', event_datetime: '2026-11-01 07:30:00' }),
    count: async (user) =>
      listed('getExpenseSlips', { vehicle_uid: await vehicleOf(user), start_date: '2026-11-01', end_date: '2026-11-01' })(user),
  },
  addOperator: {
    request: async (user, variant) =>
      post('addOperator', { api_key: user.key, ...anOperator({ fullname: variant ? 'Other Name' : 'Thabo Mokoena' }) }),
    failing: async (user) => {
      const taken = anOperator();
      await api.post('addOperator', { api_key: user.key, ...taken });
      return post('addOperator', { api_key: user.key, ...anOperator({ tag_id: taken.tag_id }) });
    },
    count: listed('getOperators'),
  },
  addUserLocation: {
    request: async (user, variant) =>
      post('addUserLocation', { api_key: user.key, description: variant ? 'Yard' : 'Depot', latitude: '-26.2041', longitude: '28.0473' }),
    count: listed('getUserLocations'),
  },
  addFuelFillSlip: {
    request: async (user, variant) =>
      post('addFuelFillSlip', { api_key: user.key, event_uid: (await fillOf(user)).eventUid, qty: variant ? '1' : '60.125' }),
    failing: async (user) => post('addFuelFillSlip', { api_key: user.key, event_uid: 999_999_999, qty: '60.125' }),
    // A fill has at most one slip, so without the key a retry would answer 409: the replay is what is tested here.
    count: async (user) => {
      const report = await api.get('getFuelFillReport', {
        api_key: user.key,
        vehicle_uid: (await fillOf(user)).vehicleUid,
        start_date: '2026-11-01',
        end_date: '2026-11-01',
      });
      return report.body.fills.filter((fill: { slip_uid: number | null }) => fill.slip_uid !== null).length;
    },
  },
  addJobCard: {
    request: async (user, variant) => {
      const body = JSON.stringify(aJobCardPayload({ ReferenceNumber: variant ? 'R-2' : 'R-1' }));
      return (headers) =>
        api.post('addJobCard', {}, { headers: { ...headers, 'X-Api-Key': user.key, 'Content-Type': 'application/json' }, rawBody: body });
    },
    count: listed('getJobCards'),
  },
  addRoute: {
    request: async (user, variant) => {
      const stops = stopsText(rawStops(3, { lat: -26.2, lng: 28.04 }));
      return post('addRoute', { api_key: user.key, route_name: variant ? 'Evening run' : 'Morning run', stops });
    },
    failing: async (user) =>
      post('addRoute', {
        api_key: user.key,
        route_name: 'Morning run',
        vehicle_uid: 999_999_999,
        stops: stopsText(rawStops(3, { lat: -26.2, lng: 28.04 })),
      }),
    count: listed('getRoutes'),
  },
  addWebhook: {
    request: async (user, variant) => post('addWebhook', { api_key: user.key, url: PUBLIC_URL, description: variant ? 'ERP' : 'Dispatch' }),
    failing: async (user) => post('addWebhook', { api_key: user.key, url: PUBLIC_URL, vehicle_uids: '999999999' }),
    count: listed('getWebhooks'),
  },
};

const withKey = (key: string) => ({ 'Idempotency-Key': key });

describe('Idempotency-Key', () => {
  it('is honoured by every create in the registry', () => {
    expect(
      operations
        .filter((operation) => 'idempotencyKey' in operation)
        .map((operation) => operation.name)
        .sort(),
    ).toEqual(Object.keys(creates).sort());
  });

  describe.each(Object.entries(creates))('%s', (_name, create) => {
    it('answers a retry with the same key and body with the first answer and creates nothing new', async () => {
      // Prepare
      const user = await givenUser();
      const send = await create.request(user);
      const key = randomUUID();
      const before = await create.count(user);
      // Act
      const first = await send(withKey(key));
      const retry = await send(withKey(key));
      // Assess
      expect(first).toBeSuccess();
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(first.body);
      expect(await create.count(user)).toBe(before + 1);
    });

    it('answers 409 to the same key with a different body', async () => {
      // Prepare
      const user = await givenUser();
      const key = randomUUID();
      await (await create.request(user))(withKey(key));
      const before = await create.count(user);
      // Act
      const res = await (await create.request(user, true))(withKey(key));
      // Assess
      expect(res).toBeError(409, 'Idempotency-Key already used with a different request');
      expect(await create.count(user)).toBe(before);
    });

    it('creates exactly one record from concurrent identical requests with one key', async () => {
      // Prepare
      const user = await givenUser();
      const send = await create.request(user);
      const key = randomUUID();
      const before = await create.count(user);
      // Act
      const answers = await Promise.all(Array.from({ length: 8 }, () => send(withKey(key))));
      // Assess
      const created = answers.filter((res) => res.status === 200);
      expect(created.length).toBeGreaterThanOrEqual(1);
      for (const res of created) expect(res.body).toEqual(created[0]?.body);
      for (const res of answers.filter((answer) => answer.status !== 200)) {
        expect(res).toBeError(409, 'a request with this Idempotency-Key is still in progress');
      }
      expect(await create.count(user)).toBe(before + 1);
    });
  });

  describe.each(Object.entries(creates).filter(([, create]) => create.failing))('%s, failing', (_name, create) => {
    it('does not hold the key when the request fails in the handler, so a corrected retry with it creates', async () => {
      // Prepare
      const user = await givenUser();
      const key = randomUUID();
      const failing = await (await (create.failing as NonNullable<CreateCase['failing']>)(user))(withKey(key));
      const before = await create.count(user);
      // Act
      const res = await (await create.request(user, true))(withKey(key));
      // Assess
      expect([404, 409]).toContain(failing.status);
      expect(res).toBeSuccess();
      expect(await create.count(user)).toBe(before + 1);
    });
  });

  describe('scope', () => {
    it("is the key's user: another user's request with the same key creates its own record", async () => {
      // Prepare
      const [alice, bob] = [await givenUser(), await givenUser()];
      const key = randomUUID();
      // Act
      const forAlice = await (await creates.addExpenseType?.request(alice))?.(withKey(key));
      const forBob = await (await creates.addExpenseType?.request(bob))?.(withKey(key));
      // Assess
      expect(forAlice).toBeSuccess();
      expect(forBob).toBeSuccess();
      expect(await listed('getExpenseTypes')(bob)).toBe(2); // Fuel and Bob's own
    });
  });

  // Header values travel as bytes: HTTP itself refuses control characters other than a tab, so these are what can arrive.
  it.each([
    ['a space', 'two words'],
    ['a tab', 'tab\there'],
    ['a Latin-1 letter (byte 0xE9)', 'cl\u00e9'],
    ['UTF-8 Cyrillic, byte by byte', Buffer.from('ключ', 'utf8').toString('latin1')],
    ['an emoji, byte by byte', Buffer.from('key-🔑', 'utf8').toString('latin1')],
  ])('refuses a key that is not printable ASCII: %s, creating nothing', async (_case, key) => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await api.post('addExpenseType', { api_key: user.key, expense_name: 'Tolls' }, { headers: withKey(key) });
    // Assess
    expect(res).toBeError(400, 'invalid Idempotency-Key: 1 to 255 printable ASCII characters');
    expect(await listed('getExpenseTypes')(user)).toBe(1);
  });

  it('refuses a key longer than 255 characters, and takes one of 255', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const tooLong = await api.post('addExpenseType', { api_key: user.key, expense_name: 'Tolls' }, { headers: withKey('x'.repeat(256)) });
    const longest = await api.post('addExpenseType', { api_key: user.key, expense_name: 'Tolls' }, { headers: withKey('~'.repeat(255)) });
    // Assess
    expect(tooLong).toBeError(400, 'invalid Idempotency-Key: 1 to 255 printable ASCII characters');
    expect(longest).toBeSuccess();
  });

  it('is optional: without it every request creates', async () => {
    const user = await givenUser();
    const send = await creates.addUserLocation?.request(user);
    await send?.({});
    await send?.({});
    expect(await listed('getUserLocations')(user)).toBe(2);
  });
});
