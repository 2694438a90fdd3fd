/**
 * The events benchmark (npm run bench -- events): what deciding events costs the positions pipeline.
 *   - WCU per position at the ingest bench's production shape (scripts/bench/ingest.ts), its user holding no zones and
 *     50 zones: the difference is what zones add;
 *   - the pipeline's CPU per position with 10, 1,000 and 10,000 zones per user (this process's CPU: the pipeline and
 *     the SDK; DynamoDB Local runs in a process of its own);
 *   - the time from a point reaching the local stack (an OsmAnd POST) to its event in getEvents, p50 and p99.
 * Zones are seeded through the store's own writes (numberLocations, then one Put per location), as addUserLocation does.
 */
import { randomInt } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LocationDetails } from '../../shared/domain/user-location.ts';
import { vehicleDetails } from '../../shared/domain/vehicle.ts';
import { processPositions } from '../../shared/pipeline/process-positions.ts';
import { createApiKey } from '../../shared/store/api-keys.ts';
import { dynamo } from '../../shared/store/client.ts';
import { createDeviceToken } from '../../shared/store/device-tokens.ts';
import { newLocationPut, numberLocations } from '../../shared/store/user-locations.ts';
import { createUser } from '../../shared/store/users.ts';
import { addVehicle, linkVehicle } from '../../shared/store/vehicles.ts';
import { places, prng, type SimulatedRecord, uniform } from '../../simulator/index.ts';
import { sendReadings } from '../devices/protocols.ts';
import { measureCapacity } from './capacity.ts';
import { ingestRun, PRODUCTION_WINDOW_S } from './ingest.ts';
import type { BenchSize, Row } from './report.ts';

const WCU_ZONES = [0, 50];
const CPU_ZONES = [10, 1_000, 10_000];
/** hours of the ingest fleet's day each CPU run sends (from 03:00: the fills and first drives) */
const CPU_HOURS = 0.25;
/** hours each WCU run sends (from 03:00) */
const WCU_HOURS = 1;
const LATENCY_SAMPLES = 20;
/** the least that still runs every step (test/project/benches.whole-table.test.ts) */
const smallest = { wcuZones: [0], cpuZones: [10], hours: 0.05, latencySamples: 1 } as const;
const PUT_CONCURRENCY = 25;
/** the area the simulated fleet drives in, with a margin */
const AREA = { south: -26.2, north: -25.95, west: 27.98, east: 28.3 };

/** `count` zones over the fleet's area: points of 0.2 to 1 km, every fifth a square polygon, some speed-limited or no-go. */
function zoneDrafts(count: number, seed: number): LocationDetails[] {
  const random = prng(seed);
  return Array.from({ length: count }, (_, n) => {
    const latitude = uniform(random, AREA.south, AREA.north);
    const longitude = uniform(random, AREA.west, AREA.east);
    const half = uniform(random, 0.002, 0.008);
    const polygon = n % 5 === 4;
    return {
      description: `Bench zone ${n + 1}`,
      latitude,
      longitude,
      icon: '',
      color: '',
      radiusKm: polygon ? 0 : uniform(random, 0.2, 1),
      locationType: polygon ? 'polygon' : 'point',
      points: polygon
        ? [
            { lat: latitude - half, lng: longitude - half },
            { lat: latitude - half, lng: longitude + half },
            { lat: latitude + half, lng: longitude + half },
            { lat: latitude + half, lng: longitude - half },
          ]
        : [],
      speedLimit: n % 7 === 0 ? 60 : 0,
      noGo: n % 11 === 0,
      onlyPush: false,
    };
  });
}

/** Seeds the zones as addUserLocation writes them: ids from the counter, then one conditional Put each. */
async function seedZones(userUid: number, drafts: readonly LocationDetails[]): Promise<void> {
  const locations = await numberLocations(drafts);
  for (let i = 0; i < locations.length; i += PUT_CONCURRENCY) {
    await Promise.all(
      locations.slice(i, i + PUT_CONCURRENCY).map((location) => dynamo().send(new PutCommand(newLocationPut(userUid, location)))),
    );
  }
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

const at = (start: number, seconds: number): string => new Date(start + seconds * 1000).toISOString();

/**
 * A 10-minute drive from the depot towards the Sandton client, ignition off on arrival inside a zone: the arrival
 * decides trip.completed (and, with zone events, the zone's entry).
 */
function driveInto(imei: string, start: number): SimulatedRecord[] {
  const from = places[0];
  const to = places[1];
  const steps = 20;
  return Array.from({ length: steps + 1 }, (_, i) => {
    const share = i / steps;
    const arrived = i === steps;
    return {
      imei,
      gps_datetime: at(start, 30 * i),
      latitude: from.lat + (to.lat - from.lat) * share,
      longitude: from.lng + (to.lng - from.lng) * share,
      speed: arrived ? 0 : 70,
      heading: 200,
      ignition: !arrived,
      odometer_km: null,
      engine_hours: null,
      fuel_raw: 50,
      supp_volt: 13.9,
      int_batt_volt: 4.1,
      int_temp: 28,
      ext_temp: null,
      driver_tag_id: null,
      device_type: 'FMB920',
      config: '12',
    };
  });
}

async function eventsSince(apiUrl: string, key: string, vehicleUid: number, cursor: string) {
  const query = new URLSearchParams({ api_key: key, vehicle_uid: String(vehicleUid), cursor });
  const answer = (await (await fetch(`${apiUrl}/api/getEvents?${query}`)).json()) as {
    events: Array<{ type: string; data: { occurred_at: string } }>;
    next_cursor: string;
  };
  return answer;
}

/**
 * Per sample a new vehicle drives into the zone: all but the arrival through the pipeline, then the arrival by
 * OsmAnd, timed until getEvents shows an event it decided.
 */
async function latency(apiUrl: string, samples: number): Promise<{ p50: number; p99: number; types: string[] }> {
  const user = await createUser('Bench events latency', 0);
  const key = await createApiKey(user.userUid);
  const { token } = await createDeviceToken(user.userUid);
  const destination = places[1];
  await seedZones(user.userUid, [
    { ...zoneDrafts(1, 1)[0], description: 'Bench arrival zone', latitude: destination.lat, longitude: destination.lng, radiusKm: 0.3 },
    ...zoneDrafts(49, 2),
  ] as LocationDetails[]);
  const timings: number[] = [];
  const types = new Set<string>();
  const start = Date.now() - 3_600_000;
  for (let sample = 0; sample < samples; sample++) {
    const imei = `35${String(randomInt(10 ** 12)).padStart(13, '0')}`;
    const vehicle = await addVehicle(
      vehicleDetails({
        imei,
        name: `Latency ${sample}`,
        deviceType: 'FMB920',
        config: '12',
        odometerAtStart: 0,
        fuelCapacity: 100,
      }),
    );
    await linkVehicle(user.userUid, vehicle.vehicleUid);
    const records = driveInto(imei, start + sample * 1000);
    const arrival = records.at(-1) as SimulatedRecord;
    await processPositions(
      records.slice(0, -1).map((record, i) => ({ id: String(i), data: JSON.stringify(record) })),
      { batchName: `bench-latency-${sample}` },
    );
    let { next_cursor: cursor } = await eventsSince(apiUrl, key, vehicle.vehicleUid, '');
    const arrivedAt = arrival.gps_datetime.slice(0, 19).replace('T', ' ');
    const started = performance.now();
    await sendReadings('osmand', [arrival], { baseUrl: apiUrl, token, tcpHost: '127.0.0.1', tcpPort: 0 });
    for (;;) {
      const answer = await eventsSince(apiUrl, key, vehicle.vehicleUid, cursor);
      const decided = answer.events.filter((event) => event.data.occurred_at === arrivedAt);
      if (decided.length > 0) {
        timings.push(performance.now() - started);
        for (const event of decided) types.add(event.type);
        break;
      }
      cursor = answer.next_cursor;
      if (performance.now() - started > 30_000) throw new Error('no event 30 s after the arrival');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const sorted = [...timings].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), types: [...types].sort() };
}

export async function benchEvents(apiUrl: string, size: BenchSize = 'full'): Promise<Row[]> {
  const full = size === 'full';
  measureCapacity();
  const rows: Row[] = [];
  let runNumber = 21;
  for (const zones of full ? WCU_ZONES : smallest.wcuZones) {
    const { cpuMsPerPosition, ...figures } = await ingestRun(runNumber++, PRODUCTION_WINDOW_S, 0, {
      hours: full ? WCU_HOURS : smallest.hours,
      prepareUser: (userUid) => seedZones(userUid, zoneDrafts(zones, zones)),
    });
    rows.push({
      measure: `WCU per position, production shape, ${WCU_HOURS} h in order`,
      'zones per user': zones,
      'WCU per position': figures['WCU per position'],
      'write requests per position': figures['write requests per position'],
      'RCU per position': figures['RCU per position'],
      'CPU ms per position': cpuMsPerPosition.toFixed(3),
    });
  }
  for (const zones of full ? CPU_ZONES : smallest.cpuZones) {
    const { cpuMsPerPosition, ...figures } = await ingestRun(runNumber++, PRODUCTION_WINDOW_S, 0, {
      hours: full ? CPU_HOURS : smallest.hours,
      prepareUser: (userUid) => seedZones(userUid, zoneDrafts(zones, zones)),
    });
    rows.push({
      measure: `pipeline CPU per position, production shape, ${CPU_HOURS} h in order`,
      'zones per user': zones,
      'WCU per position': figures['WCU per position'],
      'write requests per position': figures['write requests per position'],
      'RCU per position': figures['RCU per position'],
      'CPU ms per position': cpuMsPerPosition.toFixed(3),
    });
  }
  const { p50, p99, types } = await latency(apiUrl, full ? LATENCY_SAMPLES : smallest.latencySamples);
  rows.push({
    measure: `point to its event in getEvents (${LATENCY_SAMPLES} arrivals by OsmAnd; ${types.join(', ')})`,
    'zones per user': 50,
    'p50 ms': p50.toFixed(0),
    'p99 ms': p99.toFixed(0),
  });
  return rows;
}

export const eventsNotes = [
  `WCU rows: 10 vehicles × ${WCU_HOURS} h of fleetDay at 30 s reporting, batches by 30 s arrival window ` +
    "(the ingest bench's production shape); the user holds the zones; trips, fills and their events are decided in both rows",
  `CPU rows: the same shape over ${CPU_HOURS} h; CPU is this process's user + system time per accepted position`,
  'latency: the arrival (ignition off inside a 0.3 km zone) is POSTed to /devices/osmand (the local sink batches for 200 ms), ' +
    'then getEvents is polled every 10 ms with its cursor until an event stamped at the arrival appears',
];
