/**
 * The monthly cost of one vehicle, measured: capacity units from DynamoDB Local (ReturnConsumedCapacity on every
 * request of the real code), Lambda durations timed here with the stack's configured memory, and the prices in
 * prices.ts. The pipeline part runs the deployed handler (functions/processPositions) on batches shaped like the
 * ones the stream hands it, so the figure follows the pipeline's code.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { Tracing } from 'aws-cdk-lib/aws-lambda';
import type { Context, KinesisStreamEvent } from 'aws-lambda';
import type { KeyOperationName, OperationName } from '../../functions/registry.ts';
import { functionDefaults } from '../../infra/api/operation-functions.ts';
import { pipelineSettings, streamDefaults } from '../../infra/positions/positions-pipeline.ts';
import { lambdaContext, toHttpApiEvent } from '../../local/api-gateway-event.ts';
import { vehicleDetails } from '../../shared/domain/vehicle.ts';
import { s3 } from '../../shared/store/bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { createDeviceToken } from '../../shared/store/device-tokens.ts';
import { takeFromQuietBucket } from '../../shared/store/rate-limits.ts';
import { createUser } from '../../shared/store/users.ts';
import { addVehicle, linkVehicle } from '../../shared/store/vehicles.ts';
import { fleetDay, interleave } from '../../simulator/index.ts';
import { billedReadUnits } from './capacity.ts';
import {
  amazonLocationMonth,
  apiCallLogsMonth,
  FLEETS,
  httpDeviceMonth,
  listenerModeFor,
  monitoringMonth,
  type PhoneRequests,
  POSITIONS_PER_MONTH,
  pipelineInvocations,
  REPORT_EVERY_S,
  SINGLE_TASK_UP_TO,
  shardsFor,
  streamMonth,
  type TableMode,
  tableModeFor,
  tableUnitsMonth,
  teltonikaMonth,
  xrayMonth,
} from './fleet-cost.ts';
import { type CallApi, operationPlans } from './operation-plans.ts';
import { callOperation, UNREACHED_LIMIT } from './operations.ts';
import { prices } from './prices.ts';
import { type BenchSize, type Row, round } from './report.ts';

/** One dispatcher's screen per this many vehicles: its polling is shared by them. */
const VEHICLES_PER_DISPATCHER = 100;
const REPORT_INTERVAL_S = REPORT_EVERY_S;
const DAYS_PER_MONTH = 30;

/** What is measured: vehicles (one simulated day each, or its first hours) and calls per operation of the mix. */
const measuredSizes = {
  full: { vehicles: 8, hours: 24, apiCalls: 20, warmUpCalls: 2 },
  smallest: { vehicles: 2, hours: 0.05, apiCalls: 1, warmUpCalls: 0 },
} as const;

/**
 * Realistic API use per vehicle and day (stated in docs/cost.md): a dispatcher's screen polls the fleet's live data
 * every minute for 10 hours (600 calls a day shared by the fleet), opens the live map 20 times; each vehicle gets a
 * trip list and a fuel report a day, two slips and a job card, and a route a week.
 */
const API_CALLS_PER_VEHICLE_DAY: Partial<Record<KeyOperationName, number>> = {
  getLiveData: 600 / VEHICLES_PER_DISPATCHER,
  getLiveMap: 20 / VEHICLES_PER_DISPATCHER,
  getVehicles: 10 / VEHICLES_PER_DISPATCHER,
  getTrips: 1,
  getFuelFillReport: 1,
  getExpenseSlips: 1,
  addExpenseSlip: 2,
  addJobCard: 1,
  getJobCards: 1,
  addRoute: 1 / 7,
};

interface Usage {
  readUnits: number;
  writeUnits: number;
  s3Puts: number;
  s3PutBytes: number;
}

let usage: Usage = { readUnits: 0, writeUnits: 0, s3Puts: 0, s3PutBytes: 0 };
const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

let metering = false;

/** Asks every DynamoDB request for its consumed capacity and adds it up; counts S3 PUTs and their bytes. Once per process. */
function meterClients(): void {
  if (metering) return;
  metering = true;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
      const units = [consumed ?? []].flat().reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      const command = context.commandName ?? '';
      if (WRITES.test(command)) usage.writeUnits += units;
      else usage.readUnits += billedReadUnits(command, args.input as Record<string, unknown>, units);
      return result;
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
  s3().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'PutObjectCommand') {
        usage.s3Puts++;
        const body = (args.input as { Body?: string | Uint8Array }).Body;
        usage.s3PutBytes += typeof body === 'string' ? Buffer.byteLength(body) : (body?.byteLength ?? 0);
      }
      return next(args);
    },
    { step: 'initialize', name: 'benchS3Meter' },
  );
}

async function measured<T>(run: () => Promise<T>): Promise<{ usage: Usage; ms: number; result: T }> {
  usage = { readUnits: 0, writeUnits: 0, s3Puts: 0, s3PutBytes: 0 };
  const started = performance.now();
  const result = await run();
  return { usage, ms: performance.now() - started, result };
}

/** Positions of one vehicle in one invocation: what a window gathers (writes follow vehicle-batches, not positions). */
const positionsPerVehicleBatch = () => Math.max(1, Math.round(pipelineSettings.batchingWindowS / REPORT_INTERVAL_S));

/** seconds from a fix to the stream: a phone's or a unit's report on its way */
const ARRIVAL_DELAY_S = 2;

export function kinesisEvent(lines: readonly string[], offset: number): KinesisStreamEvent {
  return {
    Records: lines.map((line, i) => ({
      eventID: `shardId-000000000000:${String(offset + i).padStart(20, '0')}`,
      eventSource: 'aws:kinesis',
      eventSourceARN: 'arn:aws:kinesis:local:000000000000:stream/positions',
      eventVersion: '1.0',
      eventName: 'aws:kinesis:record',
      invokeIdentityArn: 'arn:aws:iam::000000000000:role/bench',
      awsRegion: 'local',
      kinesis: {
        kinesisSchemaVersion: '1.0',
        partitionKey: 'imei',
        sequenceNumber: String(offset + i).padStart(20, '0'),
        // the stream receives a report a moment after its fix: arrival at 0 (1970) made every position one from the future
        approximateArrivalTimestamp: Date.parse((JSON.parse(line) as { gps_datetime: string }).gps_datetime) / 1000 + ARRIVAL_DELAY_S,
        data: Buffer.from(line).toString('base64'),
      },
    })),
  };
}

interface PipelineMeasure {
  positions: number;
  bytes: number;
  invocations: number;
  ms: number[];
  usage: Usage;
  tableBytes: number;
  /** the fleet's user and its vehicles' IMEIs */
  userUid: number;
  imeis: string[];
}

/** One simulated day (or its first hours) of some vehicles through processPositions in batches of `batch` records. */
async function measurePipeline(
  batch: number,
  date: string,
  seed: number,
  { vehicles, hours }: { vehicles: number; hours: number },
): Promise<PipelineMeasure> {
  const { handler } = await import('../../functions/processPositions/handler.ts');
  // The simulator numbers its devices from one base: each run shifts them, so runs in one stack never claim the same IMEI.
  const imeiOf = (imei: string) => String(BigInt(imei) + BigInt(seed) * 1000n);
  const days = fleetDay(vehicles, date, REPORT_INTERVAL_S, seed);
  const user = await createUser(`Cost fleet ${date}`, 0);
  for (const day of days) {
    const vehicle = await addVehicle(
      vehicleDetails({
        imei: imeiOf(day.vehicle.imei),
        name: `Cost ${day.vehicle.imei.slice(-3)}`,
        deviceType: day.vehicle.deviceType,
        config: day.vehicle.config,
        odometerAtStart: day.vehicle.odometerKm,
        odometerAtStartDate: date,
        fuelCapacity: day.vehicle.fuelCapacity,
        fuelFactor: day.vehicle.fuelFactor,
      }),
    );
    await linkVehicle(user.userUid, vehicle.vehicleUid);
  }
  const until = Date.parse(`${date}T00:00:00Z`) + hours * 3_600_000;
  const lines = interleave(days)
    .filter((record) => Date.parse(record.gps_datetime) < until)
    .map((record) => JSON.stringify({ ...record, imei: imeiOf(record.imei) }));
  const sizeBefore = await tableBytes();
  const total: PipelineMeasure = {
    positions: lines.length,
    bytes: 0,
    invocations: 0,
    ms: [],
    usage: { readUnits: 0, writeUnits: 0, s3Puts: 0, s3PutBytes: 0 },
    tableBytes: 0,
    userUid: user.userUid,
    imeis: days.map((day) => imeiOf(day.vehicle.imei)),
  };
  for (let start = 0; start < lines.length; start += batch) {
    const slice = lines.slice(start, start + batch);
    const context: Context = lambdaContext('processPositions', `cost-${start}`, 120_000);
    const run = await measured(() => handler(kinesisEvent(slice, start), context));
    total.invocations++;
    total.ms.push(run.ms);
    total.bytes += slice.reduce((sum, line) => sum + Math.ceil(Buffer.byteLength(line) / 1024) * 1024, 0);
    for (const key of Object.keys(total.usage) as (keyof Usage)[]) total.usage[key] += run.usage[key];
  }
  total.tableBytes = (await tableBytes()) - sizeBefore;
  return total;
}

/**
 * A phone's reports through the OsmAnd endpoint as deployed (its chain: the token, the IMEI's owner, the token's and
 * the IMEI's buckets), its sink taking the records at once (the pipeline is measured apart): DynamoDB units and
 * handler time of the first request of a container (token and IMEIs not yet remembered) and of the next ones, a
 * report interval apart on the buckets' clock (a phone slower than its buckets refill costs them no write).
 */
async function measurePhone(userUid: number, imei: string, calls: number): Promise<PhoneRequests> {
  const { osmandEndpoint } = await import('../../functions/osmandPositions/handler.ts');
  const reportedAt = { ms: Date.now() };
  const handler = osmandEndpoint({
    sink: () => ({ put: async () => undefined }),
    takeFromBucket: (bucket, policy) => takeFromQuietBucket(bucket, policy, () => reportedAt.ms),
  });
  const { token } = await createDeviceToken(userUid);
  const report = (i: number) => async () => {
    reportedAt.ms += REPORT_INTERVAL_S * 1000;
    const query = `id=${imei}&timestamp=${1_795_000_000 + i * REPORT_INTERVAL_S}&lat=-26.2&lon=28.04&speed=0`;
    const event = toHttpApiEvent({
      method: 'POST',
      path: `/devices/osmand/${token}`,
      operation: 'osmandPositions',
      query,
      headers: {},
      body: Buffer.alloc(0),
      sourceIp: '127.0.0.1',
      resource: '/devices/osmand/{token}',
      pathParameters: { token },
    });
    const answer = await handler(event, lambdaContext('osmandPositions', `phone-${i}`));
    if (answer.statusCode !== 200) throw new Error(`the phone's report was answered ${answer.statusCode}: ${answer.body}`);
  };
  const first = await measured(report(0));
  const next = await measured(async () => {
    for (let i = 1; i <= calls; i++) await report(i)();
  });
  return {
    writeUnitsPerRequest: next.usage.writeUnits / calls,
    readUnitsPerRequest: next.usage.readUnits / calls,
    readUnitsPerLookup: first.usage.readUnits - next.usage.readUnits / calls,
    ms: next.ms / calls,
  };
}

async function tableBytes(): Promise<number> {
  const { Table } = await dynamo().send(new DescribeTableCommand({ TableName: tableName() }));
  return Table?.TableSizeBytes ?? 0;
}

interface ApiMeasure {
  operation: OperationName;
  perDay: number;
  usage: Usage;
  ms: number;
}

/** Each operation of the mix called `calls` times over HTTP after its warm-up calls: capacity and wall time per call. */
async function measureApi(
  apiUrl: string,
  { apiCalls: calls, warmUpCalls }: { apiCalls: number; warmUpCalls: number },
): Promise<ApiMeasure[]> {
  // a limit no call reaches, as the operations bench sets it: every call pays its bucket write, none is refused
  process.env.RATE_LIMIT_PER_SECOND = UNREACHED_LIMIT;
  process.env.RATE_LIMIT_BURST = UNREACHED_LIMIT;
  const callApi: CallApi = (name, user, request) => callOperation(apiUrl, name, user, request);
  const plans = await operationPlans(apiUrl, callApi);
  const results: ApiMeasure[] = [];
  for (const [operation, perDay] of Object.entries(API_CALLS_PER_VEHICLE_DAY) as [KeyOperationName, number][]) {
    const { user, request } = await plans[operation](warmUpCalls + calls);
    const call = (i: number) => {
      const sent = request(i);
      return callApi(operation, sent.user ?? user, sent);
    };
    for (let i = 0; i < warmUpCalls; i++) await call(i);
    const run = await measured(async () => {
      for (let i = warmUpCalls; i < warmUpCalls + calls; i++) await call(i);
    });
    const perCall = (value: number) => value / calls;
    results.push({
      operation,
      perDay,
      ms: perCall(run.ms),
      usage: {
        readUnits: perCall(run.usage.readUnits),
        writeUnits: perCall(run.usage.writeUnits),
        s3Puts: perCall(run.usage.s3Puts),
        s3PutBytes: perCall(run.usage.s3PutBytes),
      },
    });
  }
  return results;
}

const GB = 1024 ** 3;
const lambdaCost = (invocations: number, ms: number, memoryMb: number) =>
  invocations * (prices.lambda.perMillionRequests / 1e6) +
  invocations * (Math.ceil(ms) / 1000) * (memoryMb / 1024) * prices.lambda.perGbSecondArm;
const money = (value: number) => `$${value < 0.01 ? value.toFixed(4) : value.toFixed(3)}`;
const times = (value: number) => `1/${round(value, 1)}`;

export const costNotes = [
  `prices: ${prices.region}, list prices as of ${prices.asOf} (scripts/bench/prices.ts); no free tier`,
  `per vehicle reporting every ${REPORT_INTERVAL_S} s for ${DAYS_PER_MONTH} days (${POSITIONS_PER_MONTH.toLocaleString('en')} ` +
    "positions), in fleets of each size: the stream, the pipeline's invocations, the Teltonika listener and the alarms " +
    'are shared by the fleet',
  `stream: provisioned (the default, infra/positions/positions-pipeline.ts), ${streamDefaults.retentionHours} h retention, ` +
    'shards to stay under ' +
    `80 % of a shard's records/s (${FLEETS.map((vehicles) => `${shardsFor(vehicles)} at ${vehicles.toLocaleString('en')}`).join(', ')}); ` +
    `batches of up to ${pipelineSettings.batchSize} records every ${pipelineSettings.batchingWindowS} s per shard`,
  'pipeline: simulated vehicle-days through functions/processPositions on DynamoDB Local (capacity units from ' +
    'ReturnConsumedCapacity), Lambda time per vehicle and batch as measured; phones: the HTTP API (DevicesHttpUrl); ' +
    `Teltonika: the listener's footprint for the fleet (single-task up to ${SINGLE_TASK_UP_TO.toLocaleString('en')} units, ` +
    'load-balanced above)',
  `API: ${Object.entries(API_CALLS_PER_VEHICLE_DAY)
    .map(([name, perDay]) => `${name} ${round(perDay, 2)}/day`)
    .join(', ')}; per-key rate limit and key lookup on every call (no key cache)`,
  'durations are measured locally against DynamoDB Local; ' +
    'in AWS, DynamoDB answers in a few ms instead of ~1 ms, so Lambda time (a small part) may be 2-4 times higher',
  "before: the same measurements on the stack's earlier settings, an on-demand stream (4 shards' batchers) and phones on the REST API",
];

/** What one vehicle costs whatever the fleet, from the measurements: per position, per API call. */
function perVehicleCosts(pipeline: PipelineMeasure, measuredVehicles: number, api: ApiMeasure[]) {
  const scale = POSITIONS_PER_MONTH / (pipeline.positions / measuredVehicles) / measuredVehicles;
  const apiUnits = (key: keyof Usage) => api.reduce((sum, entry) => sum + entry.usage[key] * entry.perDay * DAYS_PER_MONTH, 0);
  const apiCalls = api.reduce((sum, entry) => sum + entry.perDay * DAYS_PER_MONTH, 0);
  const writes = pipeline.usage.writeUnits * scale + apiUnits('writeUnits');
  const reads = pipeline.usage.readUnits * scale + apiUnits('readUnits');
  const storedGb = (pipeline.tableBytes * scale) / GB;
  // Lambda time follows vehicles per batch: each invocation measured held `measuredVehicles` vehicles' positions.
  const msPerVehicleBatch = pipeline.ms.reduce((sum, ms) => sum + ms, 0) / pipeline.invocations / measuredVehicles;
  const vehicleBatches = POSITIONS_PER_MONTH / positionsPerVehicleBatch();
  return {
    writes,
    reads,
    storedGb,
    apiCalls,
    msPerVehicleBatch,
    archiveMb: (pipeline.usage.s3PutBytes * scale) / 1024 ** 2,
    /** the table's month for a vehicle in a fleet, its units billed in the capacity mode given */
    dynamodb: (vehicles: number, mode: TableMode = tableModeFor(vehicles, { writes, reads })) =>
      tableUnitsMonth(vehicles, { writes, reads }, mode) / vehicles +
      storedGb * (prices.dynamodb.perGbMonthStorage + prices.dynamodb.perGbMonthPitr),
    lambda:
      vehicleBatches * (msPerVehicleBatch / 1000) * (pipelineSettings.memoryMb / 1024) * prices.lambda.perGbSecondArm +
      api.reduce((sum, entry) => sum + lambdaCost(entry.perDay * DAYS_PER_MONTH, entry.ms, functionDefaults.memorySize), 0),
    s3:
      apiUnits('s3Puts') * (prices.s3.perThousandPuts / 1000) +
      ((pipeline.usage.s3PutBytes * scale + apiUnits('s3PutBytes')) / GB) * prices.s3.perGbMonthStandard,
    apiGateway: apiCalls * (prices.apiGateway.perMillionRestRequests / 1e6),
  };
}

/** The device functions as they were: a `request answered` and a metrics line a request, Lambda's lines, its own trace sample. */
const EARLIER_DEVICE_SETTINGS = { systemLogLevel: 'INFO', tracing: Tracing.ACTIVE, eachRequestLogged: true };

/** The pipeline's invocations (their request fee, raw-archive PUT and trace each), shared by the fleet. */
const invocationsMonth = (invocations: number) =>
  invocations * (prices.lambda.perMillionRequests / 1e6 + prices.s3.perThousandPuts / 1000) + xrayMonth(invocations / (30 * 86_400));

export async function benchCost(apiUrl: string, size: BenchSize = 'full'): Promise<Row[]> {
  process.env.API_KEY_CACHE_SECONDS = '0';
  process.env.RATE_LIMIT_PER_SECOND = '1000000';
  meterClients();
  const measuring = measuredSizes[size];
  // The measured vehicles in batches with as many positions of each as the window gathers.
  const batch = measuring.vehicles * positionsPerVehicleBatch();
  const pipeline = await measurePipeline(batch, '2026-11-03', 7, measuring);
  // Every accepted position is written (each vehicle's track item at least): far fewer units mean the pipeline refused them.
  if (pipeline.usage.writeUnits < pipeline.positions / 2)
    throw new Error(`the pipeline wrote ${pipeline.usage.writeUnits} units for ${pipeline.positions} positions: were they rejected?`);
  const phoneRequests = await measurePhone(pipeline.userUid, pipeline.imeis[0] as string, measuring.apiCalls);
  const api = await measureApi(apiUrl, measuring);
  const vehicle = perVehicleCosts(pipeline, measuring.vehicles, api);
  const phoneMonth = (vehicles: number) => httpDeviceMonth('http-api', vehicles, phoneRequests, undefined, tableModeFor(vehicles, vehicle));

  const perFleet = (cost: (vehicles: number) => number, format: (value: number) => string | number = money): Row =>
    Object.fromEntries(FLEETS.map((vehicles) => [`${vehicles.toLocaleString('en')} vehicles`, format(cost(vehicles))]));
  // the API calls' traces (every function is traced: at these rates Lambda samples each call) and logs
  const observability = (vehicles: number) =>
    (xrayMonth((vehicles * vehicle.apiCalls) / (30 * 86_400)) + apiCallLogsMonth(vehicles * vehicle.apiCalls)) / vehicles;
  const pipelineAndApi = (vehicles: number, tableMode?: TableMode) =>
    vehicle.dynamodb(vehicles, tableMode) +
    vehicle.lambda +
    vehicle.s3 +
    vehicle.apiGateway +
    observability(vehicles) +
    (streamMonth(vehicles) + invocationsMonth(pipelineInvocations(vehicles))) / vehicles;
  const phone = (vehicles: number) => pipelineAndApi(vehicles) + phoneMonth(vehicles).total;
  const teltonika = (vehicles: number) => pipelineAndApi(vehicles) + teltonikaMonth(vehicles).total / vehicles;
  const monitoring = (vehicles: number) => monitoringMonth() / vehicles;
  // The earlier settings: an on-demand stream whose 4 shards each ran a batcher, phones on the REST API.
  const phoneBefore = (vehicles: number) =>
    pipelineAndApi(vehicles, 'on-demand') -
    (streamMonth(vehicles) + invocationsMonth(pipelineInvocations(vehicles))) / vehicles +
    (streamMonth(vehicles, 'on-demand') + invocationsMonth(pipelineInvocations(vehicles, 4))) / vehicles +
    httpDeviceMonth('rest-api', vehicles, phoneRequests, EARLIER_DEVICE_SETTINGS).total;
  const location = amazonLocationMonth();
  const item = (name: string, cost: (vehicles: number) => number, measured: string, format?: (value: number) => string | number): Row => ({
    item: name,
    ...perFleet(cost, format),
    measured,
  });

  return [
    item(
      'DynamoDB',
      (vehicles) => vehicle.dynamodb(vehicles),
      `${round(vehicle.writes, 0)} WRU, ${round(vehicle.reads, 0)} RRU, ${round(vehicle.storedGb * 1024, 1)} MB stored (+PITR); ` +
        `WRU per position ${round(pipeline.usage.writeUnits / pipeline.positions, 2)}; capacity: ` +
        FLEETS.map((vehicles) => tableModeFor(vehicles, vehicle)).join(', '),
    ),
    item(
      'Lambda',
      (vehicles) => vehicle.lambda + (pipelineInvocations(vehicles) * prices.lambda.perMillionRequests) / 1e6 / vehicles,
      `processPositions ${round(vehicle.msPerVehicleBatch, 2)} ms per vehicle and batch at ${pipelineSettings.memoryMb} MB; ` +
        `${round(vehicle.apiCalls, 0)} API calls at ${functionDefaults.memorySize} MB`,
    ),
    item(
      'Kinesis',
      (vehicles) => streamMonth(vehicles) / vehicles,
      `provisioned: ${FLEETS.map((vehicles) => shardsFor(vehicles)).join(', ')} shard(s) × $${prices.kinesis.perShardHour}/h, ` +
        'a PUT payload unit a record',
    ),
    item(
      'S3',
      (vehicles) => vehicle.s3 + (pipelineInvocations(vehicles) * prices.s3.perThousandPuts) / 1000 / vehicles,
      `a raw archive PUT per batch (${FLEETS.map((vehicles) => round(pipelineInvocations(vehicles), 0).toLocaleString('en')).join(', ')} ` +
        `a month); ${round(vehicle.archiveMb, 1)} MB archived per vehicle`,
    ),
    item('API Gateway (the API)', () => vehicle.apiGateway, `${round(vehicle.apiCalls, 0)} REST requests`),
    item(
      'X-Ray and CloudWatch Logs',
      (vehicles) => observability(vehicles) + xrayMonth(pipelineInvocations(vehicles) / (30 * 86_400)) / vehicles,
      "the API calls' and the pipeline's invocations' traces (each sampled at these rates), the API calls' log lines",
    ),
    item('pipeline and API', pipelineAndApi, 'the sum above: what every vehicle pays, whatever its entry point'),
    item(
      '+ phone over the HTTP API',
      (vehicles) => phoneMonth(vehicles).total,
      `a request and an invocation a position: API Gateway ${money(phoneMonth(1000).apiGateway)}, ` +
        `Lambda ${money(phoneMonth(1000).lambda)} (${phoneMonth(1000).billedMs} ms billed; ${round(phoneRequests.ms, 1)} ms measured), ` +
        `its buckets ${money(phoneMonth(1000).limits)} ` +
        `(${round(phoneRequests.writeUnitsPerRequest, 2)} WRU and ${round(phoneRequests.readUnitsPerRequest, 2)} RRU a request), ` +
        `token lookups ${money(phoneMonth(1000).tokenReads)} (${round(phoneRequests.readUnitsPerLookup, 2)} RRU a minute), ` +
        `logs ${money(phoneMonth(1000).logs)}, X-Ray ${money(phoneMonth(1000).xray)} (device-cost)`,
    ),
    item('**all-in, a phone**', phone, ''),
    item('Amazon Location ÷ all-in, a phone', (vehicles) => location / phone(vehicles), 'target: 1/10 at 100, 1/20 at 1,000', times),
    item(
      '+ Teltonika listener',
      (vehicles) => teltonikaMonth(vehicles).total / vehicles,
      `its fixed month spread (device-cost): ${FLEETS.map(listenerModeFor).join(', ')}`,
    ),
    item('**all-in, a Teltonika unit**', teltonika, ''),
    item(
      'Amazon Location ÷ all-in, a Teltonika unit',
      (vehicles) => location / teltonika(vehicles),
      'target: 1/10 at 100, 1/20 at 1,000',
      times,
    ),
    item(
      'a Teltonika unit, load-balanced listener',
      (vehicles) => pipelineAndApi(vehicles) + teltonikaMonth(vehicles, 'load-balanced').total / vehicles,
      'the redundant footprint at every size',
    ),
    item('+ alarms and dashboard', monitoring, `the stack's, $${round(monitoringMonth(), 2)} a month`),
    item('all-in with them, a phone', (vehicles) => phone(vehicles) + monitoring(vehicles), ''),
    item('all-in with them, a Teltonika unit', (vehicles) => teltonika(vehicles) + monitoring(vehicles), ''),
    item('before: a phone, REST API, on-demand stream', phoneBefore, 'the same measurements on the earlier settings'),
    item(
      'Amazon Location trackers',
      () => location,
      `${POSITIONS_PER_MONTH} position updates at $${prices.amazonLocation.perThousandPositionUpdates}/1,000`,
    ),
  ];
}

export const pipelineSizingNotes = [
  `${measuredSizes.full.vehicles} simulated vehicle-days (30 s reports) through functions/processPositions per batch size; ` +
    'one batcher, as one shard with parallelisation factor 1',
  'a shard accepts at most 1,000 records/s: a batcher faster than that never lets a shard fall behind',
];

/** processPositions at the batch sizes a shard hands over from a quiet fleet to a full shard. */
export async function benchPipelineSizing(size: BenchSize = 'full'): Promise<Row[]> {
  meterClients();
  const rows: Row[] = [];
  const batchSizes = size === 'full' ? [8, 50, 200, 1000] : [8];
  const measuring = size === 'full' ? measuredSizes.full : measuredSizes.smallest;
  for (const [i, batch] of batchSizes.entries()) {
    const measure = await measurePipeline(batch, `2026-11-${String(10 + i).padStart(2, '0')}`, 11 + i, measuring);
    const totalMs = measure.ms.reduce((sum, ms) => sum + ms, 0);
    rows.push({
      'records per batch': batch,
      invocations: measure.invocations,
      'ms per batch (mean)': round(totalMs / measure.invocations, 1),
      'positions/s per batcher': Math.round(measure.positions / (totalMs / 1000)),
      'WRU per position': round(measure.usage.writeUnits / measure.positions, 2),
    });
  }
  return rows;
}
