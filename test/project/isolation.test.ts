/**
 * Tenant isolation, generated from the operation registry. Every parameter that names a record or a vehicle
 * (read from the handler's input schema, so a new operation cannot slip past) is tried by user B with user A's
 * record: B gets the spec's `... not found or not linked to this api key` (lists and filters: nothing of A's),
 * and A's data, read through A's key before and after, is unchanged. A read operation without such a parameter
 * lists the user's own records, so B's list must hold nothing of A's.
 */
import { describe, expect, it } from 'vitest';
import { findOperation, type Operation, type OperationName, operations } from '../../functions/registry.ts';
import { accessOf, parameterNamesOf } from '../../shared/contracts/operation.ts';
import { SLIP_TYPE_INVALID } from '../../shared/domain/expense-slip.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { type ApiResponse, api } from '../support/api.ts';
import { givenLiveState, givenTrip, givenTripWithEvents, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenExpenseType, givenFillSlip, givenFuelFill, givenSlip } from '../support/expense-slips-builders.ts';
import { aJobCardPayload, givenJobCard } from '../support/job-card-builders.ts';
import { aTagId, givenOperator } from '../support/operators-builders.ts';
import { DEPOT, ingest, parked } from '../support/position-builders.ts';
import { givenRoute, northOf, scheduledRoutes, somewhere, stopsText } from '../support/routes-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';
import { closedLocalUrl, givenDeliveryAttempt, givenWebhook, PUBLIC_URL, storedWebhook } from '../support/webhook-builders.ts';
import { givenEvent } from '../support/webhooks.ts';

/** Parameters that point at a record or a vehicle: ids and id lists, expense types, IMEI filters, route stops, job-card references. */
const SCOPED = /_uids?$|^(type|filter|stops|external_reference)$/;

type Params = Record<string, string | number | undefined>;

interface IsolationCase<R> {
  /** the parameters of B's request that carry A's record; none for a listing */
  foreign: string[];
  /** B's parameters (B's key is added) */
  send: (record: R) => Params;
  /** what B must be answered */
  answer: (res: ApiResponse, record: R) => void | Promise<void>;
}

interface Fixture<R> {
  /** A's record, and whatever of B's own the requests need, made with the test builders */
  given: (a: TestUser, b: TestUser) => Promise<R>;
  /** A's data through A's key: the same before and after B's request */
  readA: (a: TestUser, record: R) => Promise<unknown>;
  cases: IsolationCase<R>[];
}

const fixture = <R>(definition: Fixture<R>) => definition as unknown as Fixture<unknown>;

// ---- answers ----------------------------------------------------------------------------------

const notFound = (thing: string) => (res: ApiResponse) => expect(res).toBeError(404, `${thing} not found or not linked to this api key`);
const refused = (status: number, message: string) => (res: ApiResponse) => expect(res).toBeError(status, message);
const listsNothing = (field: string) => (res: ApiResponse) => {
  expect(res).toBeSuccess();
  expect(res.body).toMatchObject({ cnt: 0, [field]: [] });
};
const listsOnly =
  <R>(field: string, key: string, expected: (record: R) => unknown[]) =>
  (res: ApiResponse, record: R) => {
    expect(res).toBeSuccess();
    expect(res.body[field].map((entry: Record<string, unknown>) => entry[key])).toEqual(expected(record));
  };

// ---- reading A's data -------------------------------------------------------------------------

async function read(user: TestUser, operation: string, params: Params = {}): Promise<unknown> {
  const res = await api.get(operation, { api_key: user.key, ...params });
  expect(res, `${operation} through A's key`).toBeSuccess();
  return res.body;
}

const NOVEMBER = { start_date: '2026-11-01', end_date: '2026-11-30' };
const PLAYBACK = { start_datetime: '2026-11-02 00:00:00', end_datetime: '2026-11-02 23:59:59' };

/** A vehicle that has reported, with a trip, as most of A's records hang off one. */
async function aReportingVehicle(user: TestUser): Promise<Vehicle> {
  const vehicle = await givenVehicle(user);
  await givenLiveState(vehicle);
  await givenTrip(vehicle);
  return vehicle;
}

const twoVehicles = async (a: TestUser, b: TestUser) => ({ mine: await aReportingVehicle(a), theirs: await aReportingVehicle(b), b });
type TwoVehicles = Awaited<ReturnType<typeof twoVehicles>>;

/** The filter fixtures of the vehicle lists: A's IMEI alone, and beside B's own. */
const imeiFilterCases = (field: string, extra: Params = {}): IsolationCase<TwoVehicles>[] => [
  { foreign: ['filter'], send: ({ mine }) => ({ filter: mine.imei, ...extra }), answer: listsNothing(field) },
  {
    foreign: ['filter'],
    send: ({ mine, theirs }) => ({ filter: `${theirs.imei},${mine.imei}`, ...extra }),
    answer: listsOnly(field, 'imei', ({ theirs }: TwoVehicles) => [theirs.imei]),
  },
];

const slips = async (a: TestUser, b: TestUser) => {
  const [mine, theirs] = [await givenVehicle(a), await givenVehicle(b)];
  return {
    vehicle: mine,
    slip: await givenSlip(a, mine),
    fillSlip: await givenFillSlip(mine),
    type: await givenExpenseType(a, 'Tolls'),
    theirVehicle: theirs,
    theirSlip: await givenSlip(b, theirs),
  };
};
type Slips = Awaited<ReturnType<typeof slips>>;
const slipOf = (a: TestUser, { slip }: Slips) => read(a, 'getExpenseSlip', { slip_uid: slip.slipUid });
const slipsOf = (a: TestUser, { vehicle }: Slips) => read(a, 'getExpenseSlips', { vehicle_uid: vehicle.vehicleUid, ...NOVEMBER });
const fillReportOf = (a: TestUser, vehicle: Vehicle) => read(a, 'getFuelFillReport', { vehicle_uid: vehicle.vehicleUid, ...NOVEMBER });
const anExpense = { amount: '99.90', event_datetime: '2026-11-02 10:00:00', comment: 'not yours' };

const operator = async (a: TestUser) => givenOperator(a);
const operatorOf = (a: TestUser, { operatorUid }: Awaited<ReturnType<typeof operator>>) =>
  read(a, 'getOperator', { operator_uid: operatorUid });

const location = async (a: TestUser) => givenUserLocation(a);
const locationOf = (a: TestUser, { userLocationUid }: Awaited<ReturnType<typeof location>>) =>
  read(a, 'getUserLocation', { user_location_uid: userLocationUid });

const jobCard = async (a: TestUser) => givenJobCard(a, aJobCardPayload({ SiteReferenceNumber: `SITE-${aTagId()}` }));
type JobCard = Awaited<ReturnType<typeof jobCard>>;
const jobCardOf = async (a: TestUser, { jobCardUid }: JobCard) => [
  await read(a, 'getJobCard', { job_card_uid: jobCardUid }),
  await read(a, 'getJobCardHistory', { job_card_uid: jobCardUid }),
];

const route = async (a: TestUser) => givenRoute(a);
const routeOf = (a: TestUser, { route_uid }: Awaited<ReturnType<typeof route>>) => read(a, 'getRoute', { route_uid });

const webhook = async (a: TestUser) => givenWebhook(a);
/** A's webhook as stored, its secrets included: a foreign rotation must not touch them. */
const webhookOf = (a: TestUser, { webhookUid }: Awaited<ReturnType<typeof webhook>>) => storedWebhook(a, webhookUid);
const webhookCases = (extra: Params = {}): IsolationCase<Awaited<ReturnType<typeof webhook>>>[] => [
  { foreign: ['webhook_uid'], send: ({ webhookUid }) => ({ webhook_uid: webhookUid, ...extra }), answer: notFound('webhook') },
];
/** A's webhook with an attempt in its delivery log. */
const deliveredWebhook = async (a: TestUser) => {
  const given = await givenWebhook(a);
  await givenDeliveryAttempt(a, given.webhookUid);
  return given;
};
/** A's webhook and its delivery log through A's key: B's test must add no attempt to it. */
const webhookAndDeliveriesOf = async (a: TestUser, given: Awaited<ReturnType<typeof webhook>>) => [
  await webhookOf(a, given),
  await read(a, 'getWebhookDeliveries', { webhook_uid: given.webhookUid }),
];
/** A's webhook and an event of A's vehicle; B's own webhook, to which B asks for A's event. */
const redeliverableEvent = async (a: TestUser, b: TestUser) => {
  const event = await givenEvent(await givenVehicle(a));
  // nothing listens at A's URL: a stream reader another test file runs may route the event there, and must reach no one
  const mine = await givenWebhook(a, { url: await closedLocalUrl() });
  return { ...mine, foreign: { webhookUid: (await givenWebhook(b)).webhookUid, eventId: event.event_id } };
};
/** B names A's vehicle in the filter of a webhook of B's own. */
const foreignVehicleFilter = async (a: TestUser, b: TestUser) => ({ vehicle: await givenVehicle(a), own: await givenWebhook(b) });

const routing = async (a: TestUser) => {
  const spot = somewhere();
  return { vehicle: await givenVehicle(a), location: await givenUserLocation(a, { latitude: spot.lat, longitude: spot.lng }), spot };
};
type Routing = Awaited<ReturnType<typeof routing>>;
const ownStops = ({ spot }: Routing) => [northOf(spot, 5000), northOf(spot, 6000)];

// ---- one fixture per operation that takes a record or lists them -----------------------------

const fixtures: Partial<Record<OperationName, Fixture<unknown>>> = {
  // vehicles, live data and trips
  getVehicles: fixture({ given: twoVehicles, readA: (a) => read(a, 'getVehicles'), cases: imeiFilterCases('vehicles') }),
  getLiveData: fixture({ given: twoVehicles, readA: (a) => read(a, 'getLiveData'), cases: imeiFilterCases('vehicles') }),
  getTrips: fixture({ given: twoVehicles, readA: (a) => read(a, 'getTrips', NOVEMBER), cases: imeiFilterCases('vehicles', NOVEMBER) }),
  getPositions: fixture({
    given: async (a) => {
      const vehicle = await givenVehicle(a);
      await ingest(parked(vehicle.imei, '2026-11-02T06:00:00.000Z', 3, DEPOT));
      return vehicle;
    },
    readA: (a, vehicle) => read(a, 'getPositions', { vehicle_uid: vehicle.vehicleUid, ...PLAYBACK }),
    cases: [
      { foreign: ['vehicle_uid'], send: (vehicle) => ({ vehicle_uid: vehicle.vehicleUid, ...PLAYBACK }), answer: notFound('vehicle') },
    ],
  }),
  getEvents: fixture({
    given: async (a) => (await givenTripWithEvents(await givenVehicle(a))).trip,
    // the events, not the cursor (sealed with a fresh IV each time)
    readA: async (a) => ((await read(a, 'getEvents')) as { events: unknown }).events,
    cases: [
      {
        foreign: ['vehicle_uid'],
        send: (trip) => ({ vehicle_uid: trip.vehicleUid }),
        answer: notFound('vehicle'),
      },
      { foreign: [], send: () => ({}), answer: listsNothing('events') },
    ],
  }),
  getLiveMap: fixture({
    given: twoVehicles,
    readA: (a) => read(a, 'getLiveData'),
    cases: [
      {
        foreign: ['filter'],
        send: ({ mine }) => ({ map_api_key: 'map-key', filter: mine.imei }),
        answer: refused(404, 'no vehicle with a known position to show'),
      },
      {
        foreign: ['filter'],
        send: ({ mine, theirs }) => ({ map_api_key: 'map-key', filter: `${theirs.imei},${mine.imei}` }),
        answer: async (res, { theirs, b }) => {
          // Maps are cached by what they show, so the map of B's IMEI alone is these very bytes if A's vehicle is left out.
          const alone = await api.get('getLiveMap', { api_key: b.key, map_api_key: 'map-key', filter: theirs.imei });
          expect(res.contentType).toBe('image/png');
          expect(res.raw).toEqual(alone.raw);
        },
      },
    ],
  }),
  // expense types
  getExpenseTypes: fixture({
    given: (a) => givenExpenseType(a, 'Tolls'),
    readA: (a) => read(a, 'getExpenseTypes'),
    cases: [
      {
        foreign: [],
        send: () => ({}),
        answer: (res) => expect(res.body).toMatchObject({ cnt: 1, expense_types: [{ type: 2, name: 'Fuel' }] }),
      },
    ],
  }),
  editExpenseType: fixture({
    given: (a) => givenExpenseType(a, 'Tolls'),
    readA: (a) => read(a, 'getExpenseTypes'),
    cases: [{ foreign: ['type'], send: (type) => ({ type, expense_name: 'Parking' }), answer: notFound('expense type') }],
  }),
  deleteExpenseType: fixture({
    given: (a) => givenExpenseType(a, 'Tolls'),
    readA: (a) => read(a, 'getExpenseTypes'),
    cases: [{ foreign: ['type'], send: (type) => ({ type }), answer: notFound('expense type') }],
  }),
  // expense slips
  addExpenseSlip: fixture({
    given: slips,
    readA: slipsOf,
    cases: [
      {
        foreign: ['vehicle_uid'],
        send: ({ vehicle }) => ({ vehicle_uid: vehicle.vehicleUid, type: 2, ...anExpense }),
        answer: notFound('vehicle'),
      },
      {
        foreign: ['type'],
        send: ({ theirVehicle, type }) => ({ vehicle_uid: theirVehicle.vehicleUid, type, ...anExpense }),
        answer: refused(400, SLIP_TYPE_INVALID),
      },
      {
        foreign: ['vehicle_uid', 'type'],
        send: ({ vehicle, type }) => ({ vehicle_uid: vehicle.vehicleUid, type, ...anExpense }),
        answer: notFound('vehicle'),
      },
    ],
  }),
  getExpenseSlip: fixture({
    given: slips,
    readA: slipOf,
    cases: [
      { foreign: ['slip_uid'], send: ({ slip }) => ({ slip_uid: slip.slipUid }), answer: notFound('slip') },
      { foreign: ['slip_uid'], send: ({ fillSlip }) => ({ slip_uid: fillSlip.slipUid }), answer: notFound('slip') },
    ],
  }),
  getExpenseSlips: fixture({
    given: slips,
    readA: slipsOf,
    cases: [
      { foreign: ['vehicle_uid'], send: ({ vehicle }) => ({ vehicle_uid: vehicle.vehicleUid, ...NOVEMBER }), answer: notFound('vehicle') },
    ],
  }),
  editExpenseSlip: fixture({
    given: slips,
    readA: async (a, record) => [await slipOf(a, record), await fillReportOf(a, record.vehicle)],
    cases: [
      {
        foreign: ['slip_uid'],
        send: ({ slip }) => ({ slip_uid: slip.slipUid, amount: '1.00', comment: 'not yours' }),
        answer: notFound('slip'),
      },
      { foreign: ['slip_uid'], send: ({ fillSlip }) => ({ slip_uid: fillSlip.slipUid, qty: '1' }), answer: notFound('slip') },
      {
        foreign: ['type'],
        send: ({ theirSlip, type }) => ({ slip_uid: theirSlip.slipUid, type }),
        answer: refused(400, 'type cannot be changed: delete the slip and add a new one'),
      },
      { foreign: ['slip_uid', 'type'], send: ({ slip, type }) => ({ slip_uid: slip.slipUid, type }), answer: notFound('slip') },
    ],
  }),
  deleteExpenseSlip: fixture({
    given: slips,
    readA: async (a, record) => [await slipOf(a, record), await fillReportOf(a, record.vehicle)],
    cases: [
      { foreign: ['slip_uid'], send: ({ slip }) => ({ slip_uid: slip.slipUid }), answer: notFound('slip') },
      { foreign: ['slip_uid'], send: ({ fillSlip }) => ({ slip_uid: fillSlip.slipUid }), answer: notFound('slip') },
    ],
  }),
  // operators
  getOperators: fixture({
    given: operator,
    readA: operatorOf,
    cases: [{ foreign: [], send: () => ({}), answer: listsNothing('operators') }],
  }),
  getOperator: fixture({
    given: operator,
    readA: operatorOf,
    cases: [{ foreign: ['operator_uid'], send: ({ operatorUid }) => ({ operator_uid: operatorUid }), answer: notFound('operator') }],
  }),
  editOperator: fixture({
    given: operator,
    readA: operatorOf,
    cases: [
      {
        foreign: ['operator_uid'],
        send: ({ operatorUid }) => ({ operator_uid: operatorUid, fullname: 'Mallory', tag_id: aTagId() }),
        answer: notFound('operator'),
      },
    ],
  }),
  deleteOperator: fixture({
    given: operator,
    readA: operatorOf,
    cases: [{ foreign: ['operator_uid'], send: ({ operatorUid }) => ({ operator_uid: operatorUid }), answer: notFound('operator') }],
  }),
  // user locations
  getUserLocations: fixture({
    given: location,
    readA: locationOf,
    cases: [{ foreign: [], send: () => ({}), answer: listsNothing('locations') }],
  }),
  getUserLocation: fixture({
    given: location,
    readA: locationOf,
    cases: [
      {
        foreign: ['user_location_uid'],
        send: ({ userLocationUid }) => ({ user_location_uid: userLocationUid }),
        answer: notFound('location'),
      },
    ],
  }),
  editUserLocation: fixture({
    given: location,
    readA: locationOf,
    cases: [
      {
        foreign: ['user_location_uid'],
        send: ({ userLocationUid }) => ({ user_location_uid: userLocationUid, description: 'Not yours', latitude: 1, longitude: 1 }),
        answer: notFound('location'),
      },
    ],
  }),
  deleteUserLocation: fixture({
    given: location,
    readA: locationOf,
    cases: [
      {
        foreign: ['user_location_uid'],
        send: ({ userLocationUid }) => ({ user_location_uid: userLocationUid }),
        answer: notFound('location'),
      },
    ],
  }),
  // fuel fills
  getFuelFillReport: fixture({
    given: async (a) => {
      const vehicle = await givenVehicle(a);
      await givenFillSlip(vehicle);
      return vehicle;
    },
    readA: fillReportOf,
    cases: [
      { foreign: ['vehicle_uid'], send: (vehicle) => ({ vehicle_uid: vehicle.vehicleUid, ...NOVEMBER }), answer: notFound('vehicle') },
    ],
  }),
  addFuelFillSlip: fixture({
    given: async (a) => {
      const vehicle = await givenVehicle(a);
      return { vehicle, eventUid: await givenFuelFill(vehicle) };
    },
    readA: (a, { vehicle }) => fillReportOf(a, vehicle),
    cases: [
      {
        foreign: ['event_uid'],
        send: ({ eventUid }) => ({ event_uid: eventUid, qty: '60', amount: '1.00' }),
        answer: notFound('fuel fill event'),
      },
    ],
  }),
  // job cards
  getJobCards: fixture({
    given: jobCard,
    readA: (a) => read(a, 'getJobCards'),
    cases: [
      { foreign: [], send: () => ({}), answer: listsNothing('job_cards') },
      {
        foreign: ['external_reference'],
        send: ({ externalReference }) => ({ external_reference: externalReference ?? '' }),
        answer: listsNothing('job_cards'),
      },
    ],
  }),
  getJobCard: fixture({
    given: jobCard,
    readA: jobCardOf,
    cases: [{ foreign: ['job_card_uid'], send: ({ jobCardUid }) => ({ job_card_uid: jobCardUid }), answer: notFound('job card') }],
  }),
  editJobCard: fixture({
    given: jobCard,
    readA: jobCardOf,
    cases: [
      {
        foreign: ['job_card_uid'],
        send: ({ jobCardUid }) => ({ job_card_uid: jobCardUid, payload: JSON.stringify({ ReferenceNumber: 'NOT-YOURS' }) }),
        answer: notFound('job card'),
      },
    ],
  }),
  getJobCardHistory: fixture({
    given: jobCard,
    readA: jobCardOf,
    cases: [{ foreign: ['job_card_uid'], send: ({ jobCardUid }) => ({ job_card_uid: jobCardUid }), answer: notFound('job card') }],
  }),
  // routes
  addRoute: fixture({
    given: routing,
    readA: async (a, { vehicle }) => [
      await read(a, 'getUserLocations'),
      await read(a, 'getRoutes'),
      await scheduledRoutes(vehicle.vehicleUid),
    ],
    cases: [
      {
        foreign: ['stops'],
        send: (record) => ({
          route_name: 'Not yours',
          stops: stopsText([{ user_location_uid: record.location.userLocationUid }, ...ownStops(record)]),
        }),
        answer: notFound('location'),
      },
      {
        foreign: ['stops'],
        send: (record) => ({ route_name: 'Same spot', stops: stopsText([record.spot, ...ownStops(record)]) }),
        answer: (res, record) => {
          expect(res).toBeSuccess();
          expect(res.body.stops[0]).toMatchObject({ created: true });
          expect(res.body.stops[0].user_location_uid).not.toBe(record.location.userLocationUid);
        },
      },
      {
        foreign: ['vehicle_uid'],
        send: (record) => ({ route_name: 'Not yours', stops: stopsText(ownStops(record)), vehicle_uid: record.vehicle.vehicleUid }),
        answer: notFound('vehicle'),
      },
      {
        foreign: ['stops', 'vehicle_uid'],
        send: (record) => ({
          route_name: 'Not yours',
          stops: stopsText([{ user_location_uid: record.location.userLocationUid }, ...ownStops(record)]),
          vehicle_uid: record.vehicle.vehicleUid,
        }),
        answer: notFound('location'),
      },
    ],
  }),
  getRoutes: fixture({ given: route, readA: routeOf, cases: [{ foreign: [], send: () => ({}), answer: listsNothing('routes') }] }),
  getRoute: fixture({
    given: route,
    readA: routeOf,
    cases: [{ foreign: ['route_uid'], send: ({ route_uid }) => ({ route_uid }), answer: notFound('route') }],
  }),
  deleteRoute: fixture({
    given: route,
    readA: routeOf,
    cases: [{ foreign: ['route_uid'], send: ({ route_uid }) => ({ route_uid }), answer: notFound('route') }],
  }),
  // webhooks
  addWebhook: fixture({
    given: foreignVehicleFilter,
    readA: (a) => read(a, 'getWebhooks'),
    cases: [
      {
        foreign: ['vehicle_uids'],
        send: ({ vehicle }) => ({ url: PUBLIC_URL, vehicle_uids: String(vehicle.vehicleUid) }),
        answer: notFound('vehicle'),
      },
    ],
  }),
  getWebhooks: fixture({ given: webhook, readA: webhookOf, cases: [{ foreign: [], send: () => ({}), answer: listsNothing('webhooks') }] }),
  getWebhook: fixture({ given: webhook, readA: webhookOf, cases: webhookCases() }),
  editWebhook: fixture({
    given: async (a, b) => ({ ...(await webhook(a)), foreign: await foreignVehicleFilter(a, b) }),
    readA: webhookOf,
    cases: [
      ...webhookCases({ description: 'Not yours', enabled: 0 }),
      {
        foreign: ['vehicle_uids'],
        send: ({ foreign }) => ({ webhook_uid: foreign.own.webhookUid, vehicle_uids: String(foreign.vehicle.vehicleUid) }),
        answer: notFound('vehicle'),
      },
    ],
  }),
  rotateWebhookSecret: fixture({ given: webhook, readA: webhookOf, cases: webhookCases() }),
  testWebhook: fixture({ given: deliveredWebhook, readA: webhookAndDeliveriesOf, cases: webhookCases() }),
  getWebhookDeliveries: fixture({ given: deliveredWebhook, readA: webhookAndDeliveriesOf, cases: webhookCases() }),
  redeliverEvents: fixture({
    given: redeliverableEvent,
    readA: webhookAndDeliveriesOf,
    cases: [
      ...webhookCases({ since: '2026-11-01 00:00:00' }),
      {
        foreign: [],
        send: ({ foreign }) => ({ webhook_uid: foreign.webhookUid, event_id: foreign.eventId }),
        answer: notFound('event'),
      },
    ],
  }),
  deleteWebhook: fixture({ given: webhook, readA: webhookOf, cases: webhookCases() }),
};

// ---- the matrix, from the registry ------------------------------------------------------------

/** The parameter names of an operation's input schema, as validate-input reads them. */
const inputParameters = (name: OperationName): string[] => parameterNamesOf((findOperation(name) as Operation).input);

/**
 * Operations an api key may call. The person-only ones (keys and device tokens, called with a signed-in person's
 * token, never a key) are isolated in their own files: test/operations/*ApiKey*.test.ts and *DeviceToken*.test.ts
 * sign in two people and check each parameter and list the same way.
 */
const registry = await Promise.all(
  operations
    .filter((operation) => !('personOnly' in operation && operation.personOnly))
    .map(async (operation) => ({ ...operation, scoped: inputParameters(operation.name).filter((name) => SCOPED.test(name)) })),
);
/** every operation/parameter pair the registry asks for, and the read operations that list the user's own records */
const requiredPairs = registry.flatMap(({ name, scoped }) => scoped.map((parameter) => `${name}/${parameter}`));
const listings = registry.filter((operation) => accessOf(operation) === 'read' && operation.scoped.length === 0).map(({ name }) => name);
const checkedPairs = new Set<string>();
const checkedListings = new Set<string>();

describe("tenant isolation: user B with user A's records", () => {
  for (const { name, method, scoped } of registry) {
    const entry = fixtures[name];
    const needsListing = listings.includes(name);
    if (scoped.length === 0 && !needsListing) continue;

    describe(name, () => {
      if (!entry) {
        it('has an isolation fixture', () => {
          expect.fail(
            `add an isolation fixture for ${name} (it takes ${scoped.join(', ') || "no record parameter and lists the user's records"})`,
          );
        });
        return;
      }
      for (const parameter of scoped.filter((p) => !entry.cases.some((c) => c.foreign.includes(p)))) {
        it(`has an isolation fixture for ${parameter}`, () => expect.fail(`add an isolation fixture for ${name} with A's ${parameter}`));
      }
      if (needsListing && !entry.cases.some((c) => c.foreign.length === 0)) {
        it('has a listing fixture', () => expect.fail(`add an isolation fixture for ${name}: B's list must hold nothing of A's`));
      }

      for (const isolationCase of entry.cases) {
        const unknown = isolationCase.foreign.filter((p) => !scoped.includes(p));
        const title = isolationCase.foreign.length ? `B with A's ${isolationCase.foreign.join(' and ')}` : "B's list";
        it(`${title}: refused or nothing of A's, and A's data unchanged`, async () => {
          expect(unknown, `the isolation fixture for ${name} names parameters its input schema has not`).toEqual([]);
          // Prepare
          const [a, b] = [await givenUser(), await givenUser()];
          const record = await entry.given(a, b);
          const before = await entry.readA(a, record);
          // Act
          const params = { api_key: b.key, ...isolationCase.send(record) };
          const res = method === 'GET' ? await api.get(name, params) : await api.post(name, params);
          // Assess
          await isolationCase.answer(res, record);
          expect(await entry.readA(a, record)).toEqual(before);
          for (const parameter of isolationCase.foreign) checkedPairs.add(`${name}/${parameter}`);
          if (isolationCase.foreign.length === 0) checkedListings.add(name);
        });
      }
    });
  }

  it('checked every operation/parameter pair and every listing the registry asks for', () => {
    console.log(`isolation: ${checkedPairs.size} operation/parameter pairs checked`);
    console.log(`isolation: ${checkedListings.size} listings checked`);
    expect([...checkedPairs].sort()).toEqual([...requiredPairs].sort());
    expect([...checkedListings]).toEqual(expect.arrayContaining(listings));
  });
});
