/**
 * The monthly cost of one vehicle, measured: capacity units from DynamoDB Local (ReturnConsumedCapacity on every
 * request of the real code), Lambda durations timed here with the stack's configured memory, and the prices in
 * prices.ts. The pipeline part runs the deployed handler (functions/processPositions) on batches shaped like the
 * ones the stream hands it, so the figure follows the pipeline's code.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { Context, KinesisStreamEvent } from 'aws-lambda';
import type { KeyOperationName, OperationName } from '../../functions/registry.ts';
import { functionDefaults } from '../../infra/operation-functions.ts';
import { pipelineSettings } from '../../infra/positions-pipeline.ts';
import { lambdaContext } from '../../local/api-gateway-event.ts';
import { s3 } from '../../shared/store/bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { createUser } from '../../shared/store/users.ts';
import { addVehicle, linkVehicle } from '../../shared/store/vehicles.ts';
import { fleetDay, interleave } from '../../simulator/index.ts';
import { type CallApi, operationPlans } from './operation-plans.ts';
import { callOperation } from './operations.ts';
import { prices } from './prices.ts';
import { type Row, round } from './report.ts';

/** The fleet the vehicle belongs to: the stream's hourly price and the pipeline's invocations are shared by it. */
const FLEET_VEHICLES = 100;
const REPORT_INTERVAL_S = 30;
const DAYS_PER_MONTH = 30;
const SECONDS_PER_MONTH = DAYS_PER_MONTH * 86_400;
/** Vehicles measured through the pipeline (one simulated day each). */
const MEASURED_VEHICLES = 8;

/**
 * Realistic API use per vehicle and day (stated in docs/cost.md): a dispatcher's screen polls the fleet's live data
 * every minute for 10 hours (600 calls a day shared by the fleet), opens the live map 20 times; each vehicle gets a
 * trip list and a fuel report a day, two slips and a job card, and a route a week.
 */
const API_CALLS_PER_VEHICLE_DAY: Partial<Record<KeyOperationName, number>> = {
  getLiveData: 600 / FLEET_VEHICLES,
  getLiveMap: 20 / FLEET_VEHICLES,
  getVehicles: 10 / FLEET_VEHICLES,
  getTrips: 1,
  getFuelFillReport: 1,
  getExpenseSlips: 1,
  addExpenseSlip: 2,
  addJobCard: 1,
  getJobCards: 1,
  addRoute: 1 / 7,
};
const API_SAMPLE_CALLS = 20;

interface Usage {
  readUnits: number;
  writeUnits: number;
  s3Puts: number;
  s3PutBytes: number;
}

let usage: Usage = { readUnits: 0, writeUnits: 0, s3Puts: 0, s3PutBytes: 0 };
const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

/** Asks every DynamoDB request for its consumed capacity and adds it up; counts S3 PUTs and their bytes. */
function meterClients(): void {
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
      const units = [consumed ?? []].flat().reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      if (WRITES.test(context.commandName ?? '')) usage.writeUnits += units;
      else usage.readUnits += units;
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

/** Vehicles whose positions one invocation holds: the stream's shards and batchers split the fleet by IMEI. */
const vehiclesPerBatcher = (vehicles: number) => vehicles / (pipelineSettings.initialShards * pipelineSettings.parallelizationFactor);
/** Positions of one vehicle in one invocation: what a window gathers (writes follow vehicle-batches, not positions). */
const positionsPerVehicleBatch = () => Math.max(1, Math.round(pipelineSettings.batchingWindowS / REPORT_INTERVAL_S));

function kinesisEvent(lines: readonly string[], offset: number): KinesisStreamEvent {
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
        approximateArrivalTimestamp: 0,
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
}

/** One simulated day of MEASURED_VEHICLES vehicles through processPositions in batches of `batch` records. */
async function measurePipeline(batch: number, date: string, seed: number): Promise<PipelineMeasure> {
  const { handler } = await import('../../functions/processPositions/handler.ts');
  // The simulator numbers its devices from one base: each run shifts them, so runs in one stack never claim the same IMEI.
  const imeiOf = (imei: string) => String(BigInt(imei) + BigInt(seed) * 1000n);
  const days = fleetDay(MEASURED_VEHICLES, date, REPORT_INTERVAL_S, seed);
  const user = await createUser(`Cost fleet ${date}`, 0);
  for (const day of days) {
    const vehicle = await addVehicle({
      imei: imeiOf(day.vehicle.imei),
      name: `Cost ${day.vehicle.imei.slice(-3)}`,
      regNum: null,
      vehGrp: null,
      deviceType: day.vehicle.deviceType,
      config: day.vehicle.config,
      make: null,
      model: null,
      modelYear: null,
      vin: null,
      odometerAtStart: day.vehicle.odometerKm,
      odometerAtStartDate: date,
      startHours: null,
      startHoursDate: null,
      licenceExpireDate: null,
      fuelCapacity: day.vehicle.fuelCapacity,
      fuelFactor: day.vehicle.fuelFactor,
    });
    await linkVehicle(user.userUid, vehicle.vehicleUid);
  }
  const lines = interleave(days).map((record) => JSON.stringify({ ...record, imei: imeiOf(record.imei) }));
  const sizeBefore = await tableBytes();
  const total: PipelineMeasure = {
    positions: lines.length,
    bytes: 0,
    invocations: 0,
    ms: [],
    usage: { readUnits: 0, writeUnits: 0, s3Puts: 0, s3PutBytes: 0 },
    tableBytes: 0,
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

/** Each operation of the mix called API_SAMPLE_CALLS times over HTTP: capacity and wall time per call. */
async function measureApi(apiUrl: string): Promise<ApiMeasure[]> {
  const callApi: CallApi = (name, user, request) => callOperation(apiUrl, name, user, request);
  const plans = await operationPlans(callApi);
  const results: ApiMeasure[] = [];
  for (const [operation, perDay] of Object.entries(API_CALLS_PER_VEHICLE_DAY) as [KeyOperationName, number][]) {
    const { user, request } = await plans[operation](API_SAMPLE_CALLS + 2);
    const call = (i: number) => {
      const sent = request(i);
      return callApi(operation, sent.user ?? user, sent);
    };
    for (let i = 0; i < 2; i++) await call(i);
    const run = await measured(async () => {
      for (let i = 2; i < API_SAMPLE_CALLS + 2; i++) await call(i);
    });
    const perCall = (value: number) => value / API_SAMPLE_CALLS;
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

export const costNotes = [
  `prices: ${prices.region}, on-demand list prices as of ${prices.asOf} (scripts/bench/prices.ts); no free tier`,
  `one vehicle reporting every ${REPORT_INTERVAL_S} s for ${DAYS_PER_MONTH} days, in a fleet of ${FLEET_VEHICLES} that shares the ` +
    `stream's hourly price and the pipeline's batches`,
  `pipeline: ${MEASURED_VEHICLES} simulated vehicle-days through functions/processPositions on DynamoDB Local, each batch holding as ` +
    `many positions per vehicle as the ${pipelineSettings.batchingWindowS} s window gathers (${pipelineSettings.initialShards} ` +
    `shards, factor ${pipelineSettings.parallelizationFactor}); invocation time scaled to the ` +
    `${vehiclesPerBatcher(FLEET_VEHICLES)} vehicles a real batch holds`,
  `API: ${Object.entries(API_CALLS_PER_VEHICLE_DAY)
    .map(([name, perDay]) => `${name} ${round(perDay, 2)}/day`)
    .join(', ')}; per-key rate limit and key lookup on every call (no key cache)`,
  'durations are measured locally against DynamoDB Local; ' +
    'in AWS, DynamoDB answers in a few ms instead of ~1 ms, so Lambda time (a small part) may be 2-4 times higher',
];

export async function benchCost(apiUrl: string): Promise<Row[]> {
  process.env.API_KEY_CACHE_SECONDS = '0';
  process.env.RATE_LIMIT_PER_SECOND = '1000000';
  meterClients();
  // The measured vehicles in batches with as many positions of each as the window gathers.
  const batch = MEASURED_VEHICLES * positionsPerVehicleBatch();
  const pipeline = await measurePipeline(batch, '2026-11-03', 7);
  const api = await measureApi(apiUrl);

  // Per vehicle and month
  const positions = SECONDS_PER_MONTH / REPORT_INTERVAL_S;
  const scale = positions / (pipeline.positions / MEASURED_VEHICLES) / MEASURED_VEHICLES;
  const pipelineInvocations =
    (pipelineSettings.initialShards * pipelineSettings.parallelizationFactor * SECONDS_PER_MONTH) /
    pipelineSettings.batchingWindowS /
    FLEET_VEHICLES;
  // A real batch holds vehiclesPerBatcher vehicles, not MEASURED_VEHICLES: scaled linearly, an upper bound.
  const meanInvocationMs =
    (pipeline.ms.reduce((sum, ms) => sum + ms, 0) / pipeline.ms.length) *
    Math.max(1, vehiclesPerBatcher(FLEET_VEHICLES) / MEASURED_VEHICLES);
  const apiCalls = api.reduce((sum, entry) => sum + entry.perDay * DAYS_PER_MONTH, 0);
  const apiUnits = (key: keyof Usage) => api.reduce((sum, entry) => sum + entry.usage[key] * entry.perDay * DAYS_PER_MONTH, 0);
  const storedGb = (pipeline.tableBytes * scale) / GB;

  const dynamodbWrites = pipeline.usage.writeUnits * scale + apiUnits('writeUnits');
  const dynamodbReads = pipeline.usage.readUnits * scale + apiUnits('readUnits');
  const costs = {
    dynamodb:
      dynamodbWrites * (prices.dynamodb.perMillionWriteRequestUnits / 1e6) +
      dynamodbReads * (prices.dynamodb.perMillionReadRequestUnits / 1e6) +
      storedGb * (prices.dynamodb.perGbMonthStorage + prices.dynamodb.perGbMonthPitr),
    lambda:
      lambdaCost(pipelineInvocations, meanInvocationMs, pipelineSettings.memoryMb) +
      api.reduce((sum, entry) => sum + lambdaCost(entry.perDay * DAYS_PER_MONTH, entry.ms, functionDefaults.memorySize), 0),
    kinesis: (() => {
      const ingestedGb = (pipeline.bytes * scale) / GB;
      return (
        (prices.kinesis.perStreamHour * 24 * DAYS_PER_MONTH) / FLEET_VEHICLES +
        ingestedGb * (prices.kinesis.perGbIngested + prices.kinesis.perGbRetrieved) +
        ingestedGb * (6 / DAYS_PER_MONTH) * prices.kinesis.perGbMonthExtendedRetention
      );
    })(),
    s3:
      (pipelineInvocations + apiUnits('s3Puts')) * (prices.s3.perThousandPuts / 1000) +
      ((pipeline.usage.s3PutBytes * scale + apiUnits('s3PutBytes')) / GB) * prices.s3.perGbMonthStandard,
    apiGateway: apiCalls * (prices.apiGateway.perMillionRestRequests / 1e6),
  };
  const total = Object.values(costs).reduce((sum, value) => sum + value, 0);
  const location = (positions / 1000) * prices.amazonLocation.perThousandPositionUpdates;

  return [
    {
      item: 'DynamoDB',
      'per vehicle-month': money(costs.dynamodb),
      measured: `${round(dynamodbWrites, 0)} WRU, ${round(dynamodbReads, 0)} RRU, ${round(storedGb * 1024, 1)} MB stored (+PITR)`,
    },
    {
      item: 'Lambda',
      'per vehicle-month': money(costs.lambda),
      measured:
        `${round(pipelineInvocations, 0)} pipeline invocations × ${round(meanInvocationMs, 1)} ms at ` +
        `${pipelineSettings.memoryMb} MB; ${round(apiCalls, 0)} API calls at ${functionDefaults.memorySize} MB`,
    },
    {
      item: 'Kinesis',
      'per vehicle-month': money(costs.kinesis),
      measured: `${positions} records (1 KB billed each); 1/${FLEET_VEHICLES} of the stream-hours`,
    },
    {
      item: 'S3',
      'per vehicle-month': money(costs.s3),
      measured: `${round(pipelineInvocations, 0)} batch archives, ${round((pipeline.usage.s3PutBytes * scale) / 1024 ** 2, 1)} MB`,
    },
    { item: 'API Gateway', 'per vehicle-month': money(costs.apiGateway), measured: `${round(apiCalls, 0)} REST requests` },
    { item: 'total', 'per vehicle-month': money(total), measured: `${positions} positions, ${round(apiCalls, 0)} API calls` },
    {
      item: 'Amazon Location trackers (comparison)',
      'per vehicle-month': money(location),
      measured: `${positions} position updates at $${prices.amazonLocation.perThousandPositionUpdates}/1,000`,
    },
    {
      item: 'pipeline: records per invocation',
      'per vehicle-month': round(vehiclesPerBatcher(FLEET_VEHICLES) * positionsPerVehicleBatch(), 0),
      measured:
        `${pipeline.invocations} invocations of ${batch} records measured; WRU per position ` +
        `${round(pipeline.usage.writeUnits / pipeline.positions, 2)}`,
    },
  ];
}

export const pipelineSizingNotes = [
  `${MEASURED_VEHICLES} simulated vehicle-days (30 s reports) through functions/processPositions per batch size; one batcher, as one ` +
    `shard with parallelisation factor 1`,
  'a shard accepts at most 1,000 records/s: a batcher faster than that never lets a shard fall behind',
];

/** processPositions at the batch sizes a shard hands over from a quiet fleet to a full shard. */
export async function benchPipelineSizing(): Promise<Row[]> {
  meterClients();
  const rows: Row[] = [];
  for (const [i, batch] of [8, 50, 200, 1000].entries()) {
    const measure = await measurePipeline(batch, `2026-11-${String(10 + i).padStart(2, '0')}`, 11 + i);
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
