/**
 * Bad-input fuzzing through HTTP: every operation gets random and hostile requests, and every answer
 * must be the envelope (a 4xx for what it refuses, never a 5xx), while the server stays up.
 * CI runs a few cases per operation on a fixed seed; `npm run fuzz` runs 2000 per operation on a
 * fresh seed (printed; replay with FUZZ_SEED=<seed> FUZZ_RUNS=<runs>).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Operation, operations } from '../../functions/registry.ts';
import { parameterNamesOf } from '../../shared/contracts/operation.ts';
import { FUEL_TYPE } from '../../shared/domain/expense-type.ts';
import { api } from '../support/api.ts';
import { givenLiveState, givenTrip, givenUser, givenVehicle } from '../support/builders.ts';
import { givenExpenseType, givenFuelFill, givenSlip } from '../support/expense-slips-builders.ts';
import { givenJobCard } from '../support/job-card-builders.ts';
import { givenOperator } from '../support/operators-builders.ts';
import { givenRoute } from '../support/routes-builders.ts';
import { givenPolygonLocation, givenUserLocation } from '../support/user-locations-builders.ts';
import { closeConnections, type RawResponse, requestsSent, send } from './raw-http.ts';
import { type FuzzRequest, fuzzRequests, wellFormedRequests } from './requests.ts';
import type { KnownUser } from './values.ts';

const CI_SEED = 20261122;
const CI_RUNS = 40;
const runs = Number(process.env.FUZZ_RUNS ?? CI_RUNS);
const seed = Number(process.env.FUZZ_SEED ?? (process.env.FUZZ_RUNS ? Date.now() % 2 ** 31 : CI_SEED));
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const users: KnownUser[] = [];

/** A user with one record of every kind, so plausible ids reach the store and find something. */
async function givenFuzzUser(gmtOffsetMinutes: number): Promise<KnownUser> {
  const user = await givenUser({ gmtOffsetMinutes });
  const vehicle = await givenVehicle(user);
  const parked = await givenVehicle(user);
  await givenLiveState(parked);
  await givenTrip(vehicle);
  await givenPolygonLocation(user);
  const type = await givenExpenseType(user, `Tolls ${gmtOffsetMinutes}`);
  const ids = {
    vehicle_uid: [vehicle.vehicleUid, parked.vehicleUid],
    type: [type, FUEL_TYPE.type],
    slip_uid: [(await givenSlip(user, vehicle, { type })).slipUid],
    event_uid: [await givenFuelFill(vehicle), await givenFuelFill(parked)],
    operator_uid: [(await givenOperator(user)).operatorUid],
    user_location_uid: [(await givenUserLocation(user)).userLocationUid],
    job_card_uid: [(await givenJobCard(user)).jobCardUid],
    route_uid: [Number((await givenRoute(user, { vehicle_uid: vehicle.vehicleUid })).route_uid)],
  };
  return { key: user.key, ids, imeis: [vehicle.imei, parked.imei] };
}

/** The operation's parameter names, read from its contract as the validate middleware reads them. */
const parameterNames = (operation: Operation): string[] => parameterNamesOf(operation.input);

/** The envelope rules every answer keeps, whatever was sent. */
function assertAnswer(operation: Operation, request: FuzzRequest, response: RawResponse): void {
  const seen = `${response.status} ${response.contentType} ${response.body.subarray(0, 300).toString('utf8')}`;
  expect(response.status, seen).toBeLessThan(500);
  if (request.expectedStatus) expect(response.status, seen).toBe(request.expectedStatus);
  if (!request.keyed) expect(response.status, seen).toBeGreaterThanOrEqual(400);
  if (operation.name === 'getLiveMap' && response.status === 200) {
    expect(response.contentType, seen).toBe('image/png');
    expect(response.body.subarray(0, 8), seen).toEqual(PNG_SIGNATURE);
    return;
  }
  expect(response.contentType, seen).toMatch(/^application\/json/);
  const body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  expect(body, seen).toMatchObject({ version: '1', result: response.status >= 400 ? 'error' : 'success' });
  expect(typeof body.error_msg, seen).toBe('string');
  if (response.status >= 400) {
    expect(Object.keys(body).sort(), seen).toEqual(['error_msg', 'result', 'version']);
    expect(body.error_msg, seen).not.toBe('');
  } else {
    expect(body.error_msg, seen).toBe('');
  }
}

/** Sends every request the arbitrary draws, checking each answer; fast-check shrinks a failing one to its core. */
const fuzz = (operation: Operation, requests: fc.Arbitrary<FuzzRequest>, parameters: fc.Parameters<[FuzzRequest]>) =>
  fc.assert(
    fc.asyncProperty(requests, async (request) => assertAnswer(operation, request, await send(inject('apiUrl'), operation.name, request))),
    parameters,
  );

beforeAll(async () => {
  // The two extremes of the user offsets, for date arithmetic at the edges of the calendar.
  users.push(await givenFuzzUser(840), await givenFuzzUser(-720));
});

afterAll(() => {
  closeConnections();
  console.log(`fuzz: ${requestsSent()} requests tried (seed ${seed})`);
});

describe('every operation under fuzzing', () => {
  it.each(operations.map((operation, index) => [operation.name, operation, index] as const))(
    '%s answers every request with the envelope and never a 5xx',
    async (_name, operation, index) => {
      const requests = fuzzRequests(operation, parameterNames(operation), users);
      // One seed per operation, so operations with the same parameters do not replay the same cases.
      await fuzz(operation, requests, { seed: seed + index, numRuns: runs });
    },
    Math.max(30_000, runs * 1_000),
  );

  // Reads come back over what the fuzzed writes stored (names, polygons, payloads, routes), which they must still answer.
  it.each(operations.filter(({ method }) => method === 'GET').map((operation, index) => [operation.name, operation, index] as const))(
    '%s still answers a plain request once the writes have stored what they accepted',
    async (_name, operation, index) => {
      const requests = wellFormedRequests(operation, parameterNames(operation), users);
      await fuzz(operation, requests, { seed: seed + index, numRuns: Math.ceil(runs / 3) });
    },
    Math.max(30_000, runs * 500),
  );

  it('leaves the server up: a plain getVehicles still answers', async () => {
    const res = await api.get('getVehicles', { api_key: users[0]?.key });
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(2);
  });
});
