/**
 * A realistic successful request for every registry operation. Reads go to the demo account (three
 * vehicles with a simulated day through the real pipeline, its drivers, places, slips, plus job cards and
 * routes), which stays unchanged while it is measured; writes go to a second account, with one fresh
 * record per call for the deletes and the fill slips. A signed-in person's operations (the console's keys and device
 * tokens) are called with the person's access token, a manager's for the reads and another's for the writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationName } from '../../functions/registry.ts';
import { localIssuer } from '../../local/oidc/accounts.ts';
import { seedDemo } from '../../local/seed.ts';
import { parsePayload } from '../../shared/domain/job-card/parse.ts';
import { describePayload } from '../../shared/domain/job-card/rules.ts';
import { issueApiKey } from '../../shared/store/api-keys.ts';
import { createDeviceToken } from '../../shared/store/device-tokens.ts';
import { addExpenseSlip } from '../../shared/store/expense-slips.ts';
import { addExpenseType } from '../../shared/store/expense-types.ts';
import { editJobCard } from '../../shared/store/job-cards.ts';
import { listOperators } from '../../shared/store/operators.ts';
import { listUserLocations } from '../../shared/store/user-locations.ts';
import { givenUser, givenVehicle, type TestUser } from '../../test/support/builders.ts';
import { givenExpenseType, givenFuelFill, givenSlip } from '../../test/support/expense-slips-builders.ts';
import { aJobCardPayload, givenJobCard, givenJobCards } from '../../test/support/job-card-builders.ts';
import { givenSignedInUser } from '../../test/support/sign-in.ts';
import { givenUserLocation } from '../../test/support/user-locations-builders.ts';
import { givenDeliveryAttempt, givenWebhook, PUBLIC_URL } from '../../test/support/webhook-builders.ts';
import { givenReceiver } from '../../test/support/webhook-receiver.ts';

export type Params = Record<string, string | number>;

/** Who makes a call: a user's api key or, with `token`, a person signed in to the user (a Bearer access token). */
export type BenchCaller = TestUser & { token?: string };

export interface BenchRequest {
  params?: Params;
  query?: Params;
  /** a raw JSON body instead of the form */
  json?: unknown;
  /** who makes this call when it is not the plan's user (a create capped per user: at most 10 webhooks each) */
  user?: BenchCaller;
}

export interface Plan {
  user: BenchCaller;
  /** the request of the i-th call, warm-up included */
  request: (i: number) => BenchRequest;
}

/** How the script itself calls an operation while preparing data: answers the success body. */
export type CallApi = (operation: OperationName, user: BenchCaller, request: BenchRequest) => Promise<Record<string, unknown>>;

/** Prepares the data for `calls` calls of the operation. */
type Prepare = (calls: number) => Promise<Plan>;

const STOPS = JSON.stringify([
  { lat: -26.2041, lng: 28.0473, description: 'Depot' },
  { lat: -26.1076, lng: 28.0567, description: 'Client Rosebank' },
  { lat: -26.1929, lng: 28.0305 },
]);

const POLYGON = JSON.stringify([
  { lat: -26.19, lng: 28.03 },
  { lat: -26.19, lng: 28.06 },
  { lat: -26.22, lng: 28.06 },
  { lat: -26.22, lng: 28.03 },
]);

const anOperator = (i: number, tag: string): Params => ({
  fullname: 'Thabo Mokoena',
  id_number: '8001015009087',
  tag_id: `${tag}${String(i).padStart(6, '0')}`,
  default_trip_type: 0,
  active_flag: 1,
  mobile_number: '+27 82 555 0101',
  employee_number: `EMP-${i}`,
  email_address: 'thabo@example.com',
  driver_licence_expiry_datetime: '2027-03-31',
  pdp_expiry_datetime: '2026-12-01',
});

/** `count` records made ten at a time. */
async function many<T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let start = 0; start < count; start += 10) {
    made.push(...(await Promise.all(Array.from({ length: Math.min(10, count - start) }, (_, i) => make(start + i)))));
  }
  return made;
}

const at = <T>(list: readonly T[], i: number): T => {
  const item = list[i];
  if (item === undefined) throw new Error(`no prepared record for call ${i}`);
  return item;
};

/** The demo account, seeded once a run: a second seeding would register its IMEIs again (the cost plan reads it too). */
let seededDemo: ReturnType<typeof seedDemo> | undefined;
function demoAccount(): ReturnType<typeof seedDemo> {
  if (!seededDemo) {
    const stateDir = mkdtempSync(join(tmpdir(), 'fleet-bench-demo-'));
    seededDemo = seedDemo(join(stateDir, 'demo.json'), localIssuer()).finally(() => rmSync(stateDir, { recursive: true, force: true }));
  }
  return seededDemo;
}

/** The plans of every operation; `apiUrl` is the local stack's, where the managers sign in. */
export async function operationPlans(apiUrl: string, callApi: CallApi): Promise<Record<OperationName, Prepare>> {
  const demo = await demoAccount();
  const reader: TestUser = { userUid: demo.userUid, key: demo.apiKey, gmtOffsetMinutes: 120 };
  const [truck] = demo.vehicleUids;
  const day = { start_date: demo.day, end_date: demo.day };
  const readerSlip = await addExpenseSlip(reader.userUid, {
    vehicleUid: truck as number,
    type: 2,
    amount: '420.00',
    qty: '20.000',
    slipNumber: 'ENG-3001',
    eventDatetime: `${demo.day} 14:05:00`,
    comment: 'Engen N1',
  });
  const [readerOperator] = await listOperators(reader.userUid);
  const [readerLocation] = await listUserLocations(reader.userUid);
  const readerRoutes = await many(3, (i) => callApi('addRoute', reader, { params: { route_name: `Run ${i + 1}`, stops: STOPS } }));
  const readerCards = await givenJobCards(reader, 50);
  const editedCard = at(readerCards, 0);
  for (const priority of [1, 0, 1]) {
    const content = describePayload(parsePayload(JSON.stringify(aJobCardPayload({ IsPriority: priority }))), reader.gmtOffsetMinutes);
    await editJobCard(reader.userUid, editedCard.jobCardUid, content, '198.51.100.7');
  }

  const readerWebhook = await givenWebhook(reader);
  await many(100, (i) => givenDeliveryAttempt(reader, readerWebhook.webhookUid, { attempt: (i % 9) + 1 }));

  const writer = await givenUser({ gmtOffsetMinutes: 120 });
  const vehicle = await givenVehicle(writer);
  const writerWebhook = await givenWebhook(writer);
  const read =
    (params: Params = {}): Prepare =>
    async () => ({ user: reader, request: () => ({ params }) });
  const write = (request: (i: number) => BenchRequest): Plan => ({ user: writer, request });

  const readingManager = await givenSignedInUser(apiUrl);
  const readManagerVehicle = await givenVehicle(readingManager);
  await many(3, (i) => issueApiKey(readingManager.userUid, `Integration ${i + 1}`));
  await many(3, () => createDeviceToken(readingManager.userUid, readManagerVehicle.vehicleUid));
  const writingManager = await givenSignedInUser(apiUrl);
  const managedVehicle = await givenVehicle(writingManager);
  const lockedKey = await issueApiKey(writingManager.userUid, 'Locked and unlocked');
  const manage =
    (params: Params = {}): Prepare =>
    async () => ({ user: readingManager, request: () => ({ params }) });
  const asManager = (request: (i: number) => BenchRequest): Plan => ({ user: writingManager, request });

  return {
    getVehicles: read(),
    getLiveData: read(),
    getLiveMap: read({ map_api_key: 'local', width: 600, height: 600, zoom: 13 }),
    getTrips: read(day),
    getEvents: read(),
    getPositions: read({ vehicle_uid: truck as number, start_datetime: `${demo.day} 00:00:00`, end_datetime: `${demo.day} 23:59:59` }),
    getExpenseTypes: read(),
    addExpenseType: async () => write((i) => ({ params: { expense_name: `Bench type ${i}` } })),
    editExpenseType: async () => {
      const type = await givenExpenseType(writer, 'Bench tolls');
      return write((i) => ({ params: { type, expense_name: `Bench tolls ${i}` } }));
    },
    deleteExpenseType: async (calls) => {
      const types = await many(calls, async (i) => (await addExpenseType(writer.userUid, `Bench doomed ${i}`)).type);
      return write((i) => ({ params: { type: at(types, i) } }));
    },
    addExpenseSlip: async () =>
      write(() => ({
        params: {
          vehicle_uid: vehicle.vehicleUid,
          type: 2,
          amount: '850.40',
          event_datetime: '2026-11-01 07:30:00',
          qty: '42.500',
          slip_number: 'INV-1001',
          comment: 'Engen Rivonia',
        },
      })),
    getExpenseSlip: read({ slip_uid: readerSlip.slipUid }),
    getExpenseSlips: read({ vehicle_uid: truck as number, ...day }),
    editExpenseSlip: async () => {
      const slip = await givenSlip(writer, vehicle);
      return write((i) => ({ params: { slip_uid: slip.slipUid, amount: (800 + (i % 100)).toFixed(2), comment: `Corrected ${i}` } }));
    },
    deleteExpenseSlip: async (calls) => {
      const slips = await many(calls, () => givenSlip(writer, vehicle));
      return write((i) => ({ params: { slip_uid: at(slips, i).slipUid } }));
    },
    getOperators: read(),
    getOperator: read({ operator_uid: readerOperator?.operatorUid ?? 0 }),
    addOperator: async () => write((i) => ({ params: anOperator(i, `AB${Date.now().toString(36).toUpperCase()}`) })),
    editOperator: async () => {
      const { operator_uid } = await callApi('addOperator', writer, {
        params: anOperator(0, `ED${Date.now().toString(36).toUpperCase()}`),
      });
      return write((i) => ({
        params: { operator_uid: Number(operator_uid), mobile_number: `+27 82 555 ${String(i).padStart(4, '0')}`, active_flag: i % 2 },
      }));
    },
    deleteOperator: async (calls) => {
      const tag = `DE${Date.now().toString(36).toUpperCase()}`;
      const created = await many(calls, (i) => callApi('addOperator', writer, { params: anOperator(i, tag) }));
      return write((i) => ({ params: { operator_uid: Number(at(created, i).operator_uid) } }));
    },
    getUserLocations: read(),
    getUserLocation: read({ user_location_uid: readerLocation?.userLocationUid ?? 0 }),
    addUserLocation: async () =>
      write(() => ({
        params: { description: 'Depot', latitude: -26.2041, longitude: 28.0473, radius: 0.5, color: 'green', icon: 'truck' },
      })),
    editUserLocation: async () => {
      const location = await givenUserLocation(writer);
      return write((i) => ({
        params: {
          user_location_uid: location.userLocationUid,
          description: `Main depot ${i}`,
          location_type: 'polygon',
          points: POLYGON,
          no_go: i % 2,
        },
      }));
    },
    deleteUserLocation: async (calls) => {
      const locations = await many(calls, () => givenUserLocation(writer));
      return write((i) => ({ params: { user_location_uid: at(locations, i).userLocationUid } }));
    },
    getFuelFillReport: read({ vehicle_uid: truck as number, ...day }),
    addFuelFillSlip: async (calls) => {
      const fills = await many(calls, (i) => givenFuelFill(vehicle, { at: new Date(Date.UTC(2026, 10, 1) + i * 3_600_000).toISOString() }));
      return write((i) => ({ params: { event_uid: at(fills, i), qty: '62.5', amount: '1375.00', slip_number: `F-${i}` } }));
    },
    getJobCards: read({ from_date: '2026-01-01', to_date: '2026-01-31' }),
    getJobCard: read({ job_card_uid: at(readerCards, 1).jobCardUid }),
    addJobCard: async () => write((i) => ({ json: aJobCardPayload({ ReferenceNumber: `REF-${i}` }) })),
    editJobCard: async () => {
      const card = await givenJobCard(writer);
      return write((i) => ({ query: { job_card_uid: card.jobCardUid }, json: aJobCardPayload({ IsPriority: i % 2 }) }));
    },
    getJobCardHistory: read({ job_card_uid: editedCard.jobCardUid }),
    addRoute: async () => write(() => ({ params: { route_name: 'Depot to clients', stops: STOPS } })),
    getRoutes: read(),
    getRoute: read({ route_uid: Number(at(readerRoutes, 0).route_uid) }),
    deleteRoute: async (calls) => {
      const routes = await many(calls, (i) => callApi('addRoute', writer, { params: { route_name: `Doomed ${i}`, stops: STOPS } }));
      return write((i) => ({ params: { route_uid: Number(at(routes, i).route_uid) } }));
    },
    addWebhook: async (calls) => {
      const adders = await many(calls, () => givenUser());
      return write((i) => ({ params: { url: PUBLIC_URL }, user: at(adders, i) }));
    },
    getWebhooks: read(),
    getWebhook: read({ webhook_uid: readerWebhook.webhookUid }),
    editWebhook: async () => write((i) => ({ params: { webhook_uid: writerWebhook.webhookUid, description: `Dispatch ${i}` } })),
    rotateWebhookSecret: async () => write(() => ({ params: { webhook_uid: writerWebhook.webhookUid } })),
    // a receiver on 127.0.0.1 answering 204 at once: the time is the operation's own (the bench allows local targets)
    testWebhook: async () => {
      const receiver = await givenReceiver();
      const tested = await givenWebhook(writer, { url: receiver.url });
      return write(() => ({ params: { webhook_uid: tested.webhookUid } }));
    },
    getWebhookDeliveries: read({ webhook_uid: readerWebhook.webhookUid, limit: 100 }),
    // the writer's vehicle has no events: the reads a redelivery makes, nothing queued
    redeliverEvents: async () => write(() => ({ params: { webhook_uid: writerWebhook.webhookUid, since: '2026-11-01 00:00:00' } })),
    deleteWebhook: async (calls) => {
      const owners = await many(calls, () => givenUser());
      const doomed = await many(calls, (i) => givenWebhook(at(owners, i)));
      return write((i) => ({ params: { webhook_uid: at(doomed, i).webhookUid }, user: at(owners, i) }));
    },
    getAccount: manage(),
    getApiKeys: manage(),
    addApiKey: async () => asManager((i) => ({ params: { description: `Integration ${i}` } })),
    lockApiKey: async () => asManager(() => ({ params: { api_key_uid: lockedKey.apiKeyUid } })),
    unlockApiKey: async () => asManager(() => ({ params: { api_key_uid: lockedKey.apiKeyUid } })),
    deleteApiKey: async (calls) => {
      const doomed = await many(calls, (i) => issueApiKey(writingManager.userUid, `Doomed ${i}`));
      return asManager((i) => ({ params: { api_key_uid: at(doomed, i).apiKeyUid } }));
    },
    getDeviceTokens: manage(),
    addDeviceToken: async () => asManager(() => ({ params: { vehicle_uid: managedVehicle.vehicleUid } })),
    deleteDeviceToken: async (calls) => {
      const doomed = await many(calls, () => createDeviceToken(writingManager.userUid, managedVehicle.vehicleUid));
      return asManager((i) => ({ params: { device_token_uid: at(doomed, i).tokenId } }));
    },
  };
}
