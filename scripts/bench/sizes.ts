/**
 * How large a fleet × range each growing operation answers within the limits (docs/paging.md): a user gets a few
 * hundred varied records of each kind through the store and the pipeline, each operation answers them whole over
 * HTTP in plain JSON and gzip-compressed, and the per-record sizes and gzip ratio measured there are scaled to the
 * budget and to Lambda's 6 MB at the densities below.
 */
import { randomInt } from 'node:crypto';
import { request } from 'node:http';
import { limits } from '../../shared/config.ts';
import { parsePayload } from '../../shared/domain/job-card/parse.ts';
import { describePayload } from '../../shared/domain/job-card/rules.ts';
import type { Trip } from '../../shared/domain/trip.ts';
import { answerBudgetBytes, GZIP_BUDGET_FACTOR, recordCost } from '../../shared/paging/answer-page.ts';
import { processPositions } from '../../shared/pipeline/process-positions.ts';
import { editJobCard } from '../../shared/store/job-cards.ts';
import { commitDetected, givenLiveState, givenUser, givenVehicle, type TestUser } from '../../test/support/builders.ts';
import { givenFuelFill, givenSlip } from '../../test/support/expense-slips-builders.ts';
import { aJobCardPayload, givenJobCard } from '../../test/support/job-card-builders.ts';
import { aPositionRecord } from '../../test/support/position-builders.ts';
import { type BenchSize, type Row, round } from './report.ts';

/** Records per day of one vehicle: trips as the 30-vehicle, 45-day fleet (13,500 trips), positions at 30 s. */
const DENSITY = { tripsPerDay: 10, positionsPerDay: 2_880, slipsPerDay: 2, fillsPerDay: 1 };
const PLACES = ['Depot Midrand', 'Client Centurion', 'Rosebank Mall', 'Sandton City', 'OR Tambo Cargo', 'Pretoria Market'];
const DRIVERS = ['Thabo Mokoena', 'Lerato Dlamini', 'Johan van Wyk', null];
/** the full figures, and the least that still runs every step (test/project/benches.whole-table.test.ts) */
const countsBySize = {
  full: { tripDays: 10, tripVehicles: 4, vehicles: 100, sampleRecords: 300, positions: DENSITY.positionsPerDay },
  smallest: { tripDays: 1, tripVehicles: 1, vehicles: 10, sampleRecords: 10, positions: 20 },
} as const;
type Counts = (typeof countsBySize)[BenchSize];

export const sizesNotes = [
  `plain: records until the answer budget (${answerBudgetBytes(false).toLocaleString('en')} B of records as Lambda sends them, escaped ` +
    `inside its response JSON); gzip: ${GZIP_BUDGET_FACTOR}× that budget, and no more than Lambda's ` +
    `${limits.lambdaResponseBytes.toLocaleString('en')} B of base64 at the measured ratio`,
  `densities per vehicle and day: ${DENSITY.tripsPerDay} trips, ${DENSITY.positionsPerDay} positions (30 s), ` +
    `${DENSITY.slipsPerDay} expense slips, ${DENSITY.fillsPerDay} fuel fill; getPositions answers at most 10,000 a call ` +
    'and getJobCards the 1000 newest, whatever the size',
  'records are varied (times, places, drivers, figures) so gzip is not flattered by repeats; job card payloads are the ' +
    "demo's ~600 B documents (a 256 KB card is its own row)",
];

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)] as T;
const jitter = (base: number, spread: number) => round(base + (randomInt(2_000_001) / 1_000_000 - 1) * spread, 4);

async function givenTrips(user: TestUser, { tripVehicles, tripDays }: Counts): Promise<void> {
  for (let v = 0; v < tripVehicles; v++) {
    const vehicle = await givenVehicle(user);
    const trips: Trip[] = [];
    for (let day = 1; day <= tripDays; day++) {
      for (let n = 0; n < DENSITY.tripsPerDay; n++) {
        const start = Date.parse(`2026-10-${String(day).padStart(2, '0')}T05:00:00.000Z`) + n * 3_600_000 + randomInt(600) * 1000;
        const durationS = 600 + randomInt(2400);
        trips.push({
          tripUid: 1_000_000 * (v + 1) + day * 100 + n,
          vehicleUid: vehicle.vehicleUid,
          startTime: new Date(start).toISOString(),
          stopTime: new Date(start + durationS * 1000).toISOString(),
          odometerAtStart: 120_000 + day * 300 + n * 25,
          distanceKm: jitter(18, 15),
          durationS,
          maxSpeed: 60 + randomInt(60),
          fuelStart: jitter(60, 30),
          fuelEnd: jitter(40, 30),
          startLat: jitter(-26.1, 0.3),
          startLng: jitter(28.05, 0.3),
          startLocation: pick(PLACES),
          stopLat: jitter(-26.1, 0.3),
          stopLng: jitter(28.05, 0.3),
          stopLocation: pick(PLACES),
          driverName: pick(DRIVERS),
          driverTagId: randomInt(2) ? `0${randomInt(1e6)}A` : null,
        });
      }
    }
    for (let i = 0; i < trips.length; i += 20) await commitDetected(vehicle.vehicleUid, { newTrips: trips.slice(i, i + 20) });
  }
}

async function givenData(user: TestUser, { vehicles: VEHICLES, sampleRecords: SAMPLE_RECORDS, positions: POSITIONS }: Counts) {
  const vehicles = [];
  // In tens: the store's clients keep production's 1 s connection timeout.
  for (let i = 0; i < VEHICLES; i += 10) {
    const batch = await Promise.all(Array.from({ length: 10 }, () => givenVehicle(user, { name: `Truck ${randomInt(1e4)}` })));
    await Promise.all(batch.map((vehicle) => givenLiveState(vehicle, { speed: randomInt(120), heading: randomInt(360) })));
    vehicles.push(...batch);
  }
  const [first] = vehicles as [(typeof vehicles)[0]];
  const start = Date.parse('2026-11-04T00:00:00.000Z');
  const positions = Array.from({ length: POSITIONS }, (_, i) =>
    JSON.stringify(
      aPositionRecord(first.imei, new Date(start + i * 30_000).toISOString(), {
        latitude: jitter(-26.1, 0.2),
        longitude: jitter(28.05, 0.2),
        speed: randomInt(110),
        heading: randomInt(360),
        ignition: randomInt(4) > 0,
        fuel_raw: jitter(60, 40),
        odometer_km: 120_000 + i / 20,
      }),
    ),
  );
  await processPositions(
    positions.map((data, i) => ({ id: String(i + 1), data })),
    { batchName: `bench-sizes-${randomInt(1e9)}` },
  );
  for (let i = 0; i < SAMPLE_RECORDS; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, n) => {
        const day = `2026-10-${String(1 + ((i + n) % 28)).padStart(2, '0')}`;
        return Promise.all([
          givenSlip(user, first, {
            eventDatetime: `${day} ${String(randomInt(24)).padStart(2, '0')}:${String(randomInt(60)).padStart(2, '0')}:00`,
            amount: String(jitter(700, 600).toFixed(2)),
            qty: String(jitter(40, 30).toFixed(3)),
            slipNumber: `INV-${randomInt(1e6)}`,
            comment: pick(PLACES),
          }),
          givenFuelFill(first, { at: `${day}T${String(randomInt(24)).padStart(2, '0')}:12:44.000Z`, fillQty: jitter(50, 30) }),
          givenJobCard(
            user,
            aJobCardPayload({ ReferenceNumber: `WO-${randomInt(1e6)}`, SiteName: pick(PLACES), Latitude: jitter(-26, 1) }),
          ),
        ]);
      }),
    );
  }
  const card = await givenJobCard(user);
  for (let n = 0; n < 100; n++) {
    const payload = aJobCardPayload({ ReferenceNumber: `WO-${randomInt(1e6)}`, Instructions: pick(PLACES) });
    await editJobCard(user.userUid, card.jobCardUid, describePayload(parsePayload(JSON.stringify(payload)), 0), '198.51.100.7');
  }
  return { vehicleUid: first.vehicleUid, jobCardUid: card.jobCardUid };
}

interface Measured {
  records: number;
  /** bytes of one record as the budget counts it */
  recordBytes: number;
  /** gzip wire bytes per raw byte of the whole answer */
  gzipRatio: number;
}

function get(url: string, acceptEncoding: string): Promise<{ status: number; bytes: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, bytes: body.length, body });
      });
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function measure(apiUrl: string, operation: string, params: Record<string, string | number>, list: string): Promise<Measured> {
  const query = new URLSearchParams(Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)])));
  const url = `${apiUrl}/api/${operation}?${query}`;
  const [plain, gzip] = await Promise.all([get(url, 'identity'), get(url, 'gzip')]);
  if (plain.status !== 200 || gzip.status !== 200) throw new Error(`${operation} answered ${plain.status}: ${plain.body}`);
  const answer = JSON.parse(plain.body.toString()) as Record<string, unknown>;
  const records = (
    list === 'trips' ? (answer.vehicles as Array<{ trips: unknown[] }>).flatMap((vehicle) => vehicle.trips) : answer[list]
  ) as unknown[];
  const recordBytes = records.reduce<number>((sum, record) => sum + recordCost(record), 0) / records.length;
  return { records: records.length, recordBytes, gzipRatio: gzip.bytes / plain.bytes };
}

/** Records one answer holds: plain by the budget; gzip by its budget and by Lambda's limit on the base64 body. */
function capacity({ recordBytes, gzipRatio }: Measured): { plain: number; gzip: number } {
  const plain = Math.floor(answerBudgetBytes(false) / recordBytes);
  const byBudget = Math.floor(answerBudgetBytes(true) / recordBytes);
  const byLambda = Math.floor((limits.lambdaResponseBytes * 0.75) / (recordBytes * gzipRatio));
  return { plain, gzip: Math.min(byBudget, byLambda) };
}

const thousands = (value: number) => Math.floor(value).toLocaleString('en');

export async function benchSizes(apiUrl: string, size: BenchSize = 'full'): Promise<Row[]> {
  const user = await givenUser();
  const { vehicleUid, jobCardUid } = await givenData(user, countsBySize[size]);
  const tripsUser = await givenUser();
  await givenTrips(tripsUser, countsBySize[size]);
  const key = { api_key: user.key };
  const month = { start_date: '2026-10-01', end_date: '2026-10-31' };
  const plans: Array<[string, Record<string, string | number>, string, (records: number) => string]> = [
    ['getVehicles', key, 'vehicles', (n) => `${thousands(n)} vehicles`],
    ['getLiveData', key, 'vehicles', (n) => `${thousands(n)} vehicles`],
    [
      'getTrips',
      { api_key: tripsUser.key, ...month },
      'trips',
      (n) => {
        const vehicleDays = n / DENSITY.tripsPerDay;
        const fleets = `${thousands(vehicleDays / 30)} vehicles × 30 d, ${thousands(vehicleDays / 7)} × 7 d`;
        return `${thousands(vehicleDays)} vehicle-days: ${fleets}`;
      },
    ],
    [
      'getPositions',
      { ...key, vehicle_uid: vehicleUid, start_datetime: '2026-11-04 00:00:00', end_datetime: '2026-11-04 23:59:59' },
      'positions',
      (n) => `${thousands(Math.min(n, 10_000))} positions a call (${round(Math.min(n, 10_000) / DENSITY.positionsPerDay, 1)} d at 30 s)`,
    ],
    [
      'getExpenseSlips',
      { ...key, vehicle_uid: vehicleUid, ...month },
      'slips',
      (n) => `${thousands(n)} slips: ${thousands(n / DENSITY.slipsPerDay)} d of one vehicle`,
    ],
    [
      'getFuelFillReport',
      { ...key, vehicle_uid: vehicleUid, ...month },
      'fills',
      (n) => `${thousands(n)} fills: the 366-day range of one vehicle ${n >= 366 * DENSITY.fillsPerDay ? 'always' : 'not always'} fits`,
    ],
    ['getJobCards', key, 'job_cards', (n) => `${thousands(Math.min(n, 1000))} of the 1000 newest cards`],
    ['getJobCardHistory', { ...key, job_card_uid: jobCardUid }, 'history', (n) => `${thousands(n)} snapshots of one card`],
  ];
  const rows: Row[] = [];
  for (const [operation, params, list, scale] of plans) {
    const measured = await measure(apiUrl, operation, params, list);
    const { plain, gzip } = capacity(measured);
    rows.push({
      operation,
      'records measured': measured.records,
      'B/record': Math.round(measured.recordBytes),
      'gzip ratio': round(measured.gzipRatio, 3),
      'records plain': thousands(plain),
      'records gzip': thousands(gzip),
      'largest plain': scale(plain),
      'largest gzip': scale(gzip),
    });
  }
  const maxCard = 256 * 1024;
  rows.push({
    operation: 'getJobCards (256 KB cards)',
    'records measured': 0,
    'B/record': maxCard,
    'gzip ratio': '—',
    'records plain': thousands(answerBudgetBytes(false) / maxCard),
    'records gzip': `${thousands(answerBudgetBytes(true) / maxCard)} at most`,
    'largest plain': `${thousands(answerBudgetBytes(false) / maxCard)} cards a page`,
    'largest gzip': 'as their payloads compress',
  });
  return rows;
}
