/** A small fleet with records for every operation whose answer grows with data, and how each answer lists them. */
import type { ApiResponse } from '../support/api.ts';
import { api } from '../support/api.ts';
import { givenLiveState, givenTrip, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenFuelFill, givenSlip } from '../support/expense-slips-builders.ts';
import { aJobCardPayload, givenJobCard, givenJobCards } from '../support/job-card-builders.ts';
import { DEPOT, ingest, parked } from '../support/position-builders.ts';

export interface Fleet {
  user: TestUser;
  vehicleUid: number;
  jobCardUid: number;
}

/** Three vehicles, two with trips (the middle one has none), and five of every other record on the first. */
export async function givenFleet(): Promise<Fleet> {
  const user = await givenUser();
  const vehicles = await Promise.all([1, 2, 3].map((n) => givenVehicle(user, { name: `Truck ${n}` })));
  const [first, , third] = vehicles as [(typeof vehicles)[0], unknown, (typeof vehicles)[0]];
  await Promise.all(vehicles.map((vehicle) => givenLiveState(vehicle)));
  const hours = [6, 8, 10, 12];
  await Promise.all(
    [first, third].flatMap((vehicle) =>
      hours.map((hour) => givenTrip(vehicle, { startTime: `2026-11-01T${String(hour).padStart(2, '0')}:00:00.000Z` })),
    ),
  );
  await ingest(parked(first.imei, '2026-11-04T06:00:00.000Z', 7, DEPOT));
  for (const day of [1, 2, 3, 4, 5]) await givenSlip(user, first, { eventDatetime: `2026-11-0${day} 07:30:00`, slipNumber: `INV-${day}` });
  await Promise.all([1, 2, 3, 4, 5].map((day) => givenFuelFill(first, { at: `2026-11-0${day}T07:12:44.000Z` })));
  await givenJobCards(user, 5);
  const card = await givenJobCard(user, aJobCardPayload(), { createdAt: '2026-01-02T00:00:00.000Z' });
  for (const reference of ['E-1', 'E-2', 'E-3', 'E-4']) {
    await api.post(
      'editJobCard',
      {},
      {
        query: { api_key: user.key, job_card_uid: card.jobCardUid },
        headers: { 'Content-Type': 'application/json' },
        rawBody: JSON.stringify(aJobCardPayload({ ReferenceNumber: reference })),
      },
    );
  }
  return { user, vehicleUid: first.vehicleUid, jobCardUid: card.jobCardUid };
}

type Records = (body: Record<string, unknown>) => unknown[];

export interface GrowingOperation {
  name: string;
  /** the request's filters */
  params: (fleet: Fleet) => Record<string, string | number>;
  /** the answer's records, flattened (getTrips' trips carry their vehicle) */
  records: Records;
  /** the filters changed, for a cursor reused with other filters */
  otherParams: (fleet: Fleet) => Record<string, string | number>;
}

const list =
  (field: string): Records =>
  (body) =>
    body[field] as unknown[];

const WEEK = { start_date: '2026-11-01', end_date: '2026-11-07' };

export const growingOperations: GrowingOperation[] = [
  { name: 'getVehicles', params: () => ({}), records: list('vehicles'), otherParams: () => ({ filter: '1' }) },
  { name: 'getLiveData', params: () => ({}), records: list('vehicles'), otherParams: () => ({ filter: '1' }) },
  {
    name: 'getTrips',
    params: () => WEEK,
    records: (body) =>
      (body.vehicles as Array<{ vehicle_uid: string; trips: object[] }>).flatMap(({ vehicle_uid, trips }) =>
        trips.map((trip) => ({ vehicle_uid, ...trip })),
      ),
    otherParams: () => ({ ...WEEK, end_date: '2026-11-06' }),
  },
  {
    name: 'getPositions',
    params: ({ vehicleUid }) => ({ vehicle_uid: vehicleUid, start_datetime: '2026-11-04 00:00:00', end_datetime: '2026-11-04 23:59:59' }),
    records: list('positions'),
    otherParams: ({ vehicleUid }) => ({
      vehicle_uid: vehicleUid,
      start_datetime: '2026-11-04 00:00:00',
      end_datetime: '2026-11-04 23:00:00',
    }),
  },
  {
    name: 'getExpenseSlips',
    params: ({ vehicleUid }) => ({ vehicle_uid: vehicleUid, ...WEEK }),
    records: list('slips'),
    otherParams: ({ vehicleUid }) => ({ vehicle_uid: vehicleUid, ...WEEK, start_date: '2026-10-31' }),
  },
  {
    name: 'getFuelFillReport',
    params: ({ vehicleUid }) => ({ vehicle_uid: vehicleUid, ...WEEK }),
    records: list('fills'),
    otherParams: ({ vehicleUid }) => ({ vehicle_uid: vehicleUid, ...WEEK, start_date: '2026-10-31' }),
  },
  { name: 'getJobCards', params: () => ({}), records: list('job_cards'), otherParams: () => ({ from_date: '2026-01-01' }) },
  {
    name: 'getJobCardHistory',
    params: ({ jobCardUid }) => ({ job_card_uid: jobCardUid }),
    records: list('history'),
    otherParams: ({ jobCardUid }) => ({ job_card_uid: jobCardUid - 1 }),
  },
];

type Get = (operation: string, params: Record<string, string | number | undefined>) => Promise<ApiResponse>;

/** Every page of a walk from the first, with `params`, until an answer has no next_cursor (at most 100 pages). */
export async function walk(get: Get, operation: GrowingOperation, fleet: Fleet, params: Record<string, string | number>) {
  const pages: ApiResponse[] = [];
  let cursor: string | undefined;
  do {
    const page = await get(operation.name, { api_key: fleet.user.key, ...operation.params(fleet), ...params, cursor });
    pages.push(page);
    if (page.status !== 200) break;
    cursor = page.body.next_cursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}
