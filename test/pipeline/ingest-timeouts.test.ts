/**
 * A busy DynamoDB answers late: the client gives up on a call after its request timeout, and the call may still be
 * applied, before the retry or after it. DynamoDB Local answers every call at once, so a middleware on the real client
 * times out a seeded fifth of the writes, each applied before it times out or a moment after. A day ingested so, in a
 * live device's small batches, must end as the same day ingested without a fault: the same live record, positions,
 * trips and events.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../shared/pipeline/ingest.ts';
import { dynamo } from '../../shared/store/client.ts';
import { demoFleetDay, interleave } from '../../simulator/index.ts';
import { prng } from '../../simulator/random.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { timedOut } from '../support/dynamodb-faults.ts';
import { FakeClock } from '../support/fake-clock.ts';

const DAY = '2026-11-10';
const MIDDLEWARE = 'time-out-some-writes';
const BATCH = 25;
/** a seed whose timeouts fall, among others, between a batch's stored points and its track item's write */
const SEED = 2;
const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

/** Times out `share` of the writes (seeded): half applied before the timeout, half up to two seconds after it. */
function timeOutSomeWrites(
  client: DynamoDBDocumentClient,
  share: number,
  seed: number,
): { readonly count: number; settled(): Promise<void> } {
  const random = prng(seed);
  const late: Promise<unknown>[] = [];
  let count = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!WRITES.test(context.commandName ?? '') || random() >= share) return next(args);
      count++;
      if (random() < 0.5)
        late.push(new Promise((resolve) => setTimeout(resolve, random() * 2000)).then(() => next(args).catch(() => undefined)));
      else await next(args);
      throw timedOut();
    },
    // inside the SDK's retries, as a timeout on the wire is
    { step: 'finalizeRequest', name: MIDDLEWARE },
  );
  return {
    get count() {
      return count;
    },
    settled: async () => void (await Promise.all(late)),
  };
}

/** What an integrator sees of a vehicle's day. */
async function dayOf(user: TestUser, { vehicleUid, imei }: { vehicleUid: number; imei: string }) {
  const [trips, events, live, positions] = await Promise.all([
    api.get('getTrips', { api_key: user.key, filter: imei, start_date: DAY, end_date: DAY }),
    api.get('getEvents', { api_key: user.key, vehicle_uid: vehicleUid, limit: 1000 }),
    api.get('getLiveData', { api_key: user.key, filter: imei }),
    api.get('getPositions', {
      api_key: user.key,
      vehicle_uid: vehicleUid,
      start_datetime: `${DAY} 00:00:00`,
      end_datetime: `${DAY} 23:59:59`,
    }),
  ]);
  const { vehicle_uid: _uid, imei: _imei, last_response: _received, ...liveRecord } = live.body.vehicles[0];
  return {
    trips: trips.body.vehicles.flatMap((vehicle: { trips: Array<Record<string, unknown>> }) =>
      vehicle.trips.map(({ trip_uid: _trip, ...trip }) => trip),
    ),
    events: (events.body.events as Array<{ type: string; data: { occurred_at: string } }>)
      .map((event) => `${event.type} ${event.data.occurred_at}`)
      .sort(),
    live: liveRecord,
    positions: positions.body.positions.length,
  };
}

afterEach(() => {
  dynamo().middlewareStack.remove(MIDDLEWARE);
});

describe('a day ingested while DynamoDB calls time out', () => {
  it('ends as the same day ingested without a fault', async () => {
    // Prepare
    const user = await givenUser();
    const [calm, busy] = [await givenVehicle(user), await givenVehicle(user)];
    const records = interleave(demoFleetDay(DAY, [calm.imei], 5));
    // a live device's small batches, each ending in a write of the track item
    // the redelivery backoff on fake time: a retry goes at once, and a late write may still land after it
    const clock = new FakeClock();
    const ingestDay = async (imei: string, name: string) => {
      const lines = records.map((record) => JSON.stringify({ ...record, imei }));
      for (let i = 0; i < lines.length; i += BATCH) await ingestRecords(lines.slice(i, i + BATCH), `${name}-${i}`, clock);
    };
    await ingestDay(calm.imei, 'calm');
    // Act
    const timeouts = timeOutSomeWrites(dynamo(), 0.2, SEED);
    await ingestDay(busy.imei, 'busy');
    await timeouts.settled();
    dynamo().middlewareStack.remove(MIDDLEWARE);
    // Assess
    const [expected, actual] = [await dayOf(user, calm), await dayOf(user, busy)];
    expect(timeouts.count).toBeGreaterThan(20);
    expect(expected.trips.length).toBeGreaterThan(3);
    expect(actual).toEqual(expected);
  }, 120_000);
});
