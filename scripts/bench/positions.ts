/**
 * getPositions on dense history: one vehicle reporting every second, stored as the pipeline stores it (a chunk of
 * about 10 points each time the track item's tail fills), read over HTTP through the in-process API emulator on
 * DynamoDB Local. What the memory bound of docs/positions.md is for: the history a call reads (and holds), next to
 * its answer.
 */
import { dynamo } from '../../shared/store/client.ts';
import { givenUser, givenVehicle } from '../../test/support/builders.ts';
import { givenDenseHistory } from '../../test/support/position-builders.ts';
import { callOperation } from './operations.ts';
import { type BenchSize, median, type Row, round } from './report.ts';

/** the full figures, and the least that still runs every step (test/project/benches.whole-table.test.ts): an hour, one call */
const countsBySize = {
  full: { days: Number(process.env.BENCH_POSITION_DAYS ?? 2), calls: 5 },
  smallest: { days: 1 / 24, calls: 1 },
} as const;
const { days: DAYS, calls: CALLS } = countsBySize.full;
const POINTS_PER_CHUNK = 10;
const START = '2026-11-02T00:00:00.000Z';

export const positionsNotes = [
  `${DAYS} days of 1 s reporting (${(DAYS * 86_400).toLocaleString('en')} points in chunks of ${POINTS_PER_CHUNK}), ` +
    `the whole range asked for, ${CALLS} calls each`,
  'MB read: the JSON size of the Query items a call received (the history it holds before decoding), counted on the client',
];

let readBytes = 0;

/** Adds up the size of every Query answer's items. */
function meterReads(): void {
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'QueryCommand') readBytes += JSON.stringify((result.output as { Items?: unknown[] }).Items ?? []).length;
      return result;
    },
    { step: 'initialize', name: 'benchQueryBytes' },
  );
}

export async function benchPositions(apiUrl: string, size: BenchSize = 'full'): Promise<Row[]> {
  const { days: DAYS, calls: CALLS } = countsBySize[size];
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  meterReads();
  await givenDenseHistory(vehicle, START, DAYS * 86_400, POINTS_PER_CHUNK);
  const end = new Date(Date.parse(START) + DAYS * 86_400_000 - 1000).toISOString();
  const range = { start_datetime: START.slice(0, 19).replace('T', ' '), end_datetime: end.slice(0, 19).replace('T', ' ') };
  const rows: Row[] = [];
  for (const limit of [undefined, 1000]) {
    const samples: Array<{ ms: number; readMb: number; answered: number; bytes: number }> = [];
    for (let call = 0; call < CALLS; call++) {
      readBytes = 0;
      const started = performance.now();
      const params = { vehicle_uid: vehicle.vehicleUid, ...range, ...(limit ? { limit } : {}) };
      const answer = await callOperation(apiUrl, 'getPositions', user, { params });
      const ms = performance.now() - started;
      const positions = (answer.positions as unknown[] | undefined) ?? [];
      samples.push({ ms, readMb: readBytes / 2 ** 20, answered: positions.length, bytes: JSON.stringify(positions).length });
    }
    rows.push({
      limit: limit ?? 'none (10,000)',
      'positions answered': samples[0]?.answered ?? 0,
      'answer MB': round((samples[0]?.bytes ?? 0) / 2 ** 20),
      'p50 ms': Math.round(median(samples.map((sample) => sample.ms))),
      'MB read': round(samples[0]?.readMb ?? 0, 1),
    });
  }
  return rows;
}
