/**
 * What a fleet pays each month whatever it does with the API, by fleet size, from scripts/bench/prices.ts: the
 * positions stream sized to the fleet (infra/positions/positions-pipeline.ts), the device entry points (HTTP API or REST API
 * per request, the Teltonika listener's fixed month) and the stack's alarms and dashboard. `cost` adds what it
 * measures per position and per API call; `device-cost` prints the entry points alone.
 */

import { Tracing } from 'aws-cdk-lib/aws-lambda';
import { deviceFunctionSettings } from '../../infra/positions/device-endpoints.ts';
import { pipelineSettings, shardLimits } from '../../infra/positions/positions-pipeline.ts';
import { type ListenerMode, teltonikaSettings } from '../../infra/positions/teltonika-service.ts';
import { provisionedScaling, type TableCapacity } from '../../infra/table-capacity.ts';
import { tableDefinition } from '../../shared/store/table-definition.ts';
import { prices } from './prices.ts';

export const FLEETS = [10, 100, 1_000, 10_000] as const;
const HOURS_PER_MONTH = 730;
const SECONDS_PER_MONTH = 30 * 86_400;
export const REPORT_EVERY_S = 30;
export const POSITIONS_PER_MONTH = SECONDS_PER_MONTH / REPORT_EVERY_S;

/** the PositionsStreamNearCapacity alarm's threshold: a stream is sized to stay under it */
const SHARD_HEADROOM = 0.8;
/** a position record on the stream, JSON, rounded up to Kinesis's 1 KB billing unit (on-demand) */
const RECORD_KB = 1;

/** Provisioned shards a fleet needs to stay under the alarm's 80 % of a shard's records (a record is under 1 KB). */
export const shardsFor = (vehicles: number): number =>
  Math.max(1, Math.ceil(vehicles / REPORT_EVERY_S / (SHARD_HEADROOM * shardLimits.recordsPerSecond)));

/** The stream's month for a fleet, provisioned as deployed by default (24 h retention), or on-demand. */
export function streamMonth(vehicles: number, mode: 'provisioned' | 'on-demand' = 'provisioned'): number {
  const records = vehicles * POSITIONS_PER_MONTH;
  if (mode === 'provisioned')
    return shardsFor(vehicles) * HOURS_PER_MONTH * prices.kinesis.perShardHour + (records / 1e6) * prices.kinesis.perMillionPutPayloadUnits;
  const gb = (records * RECORD_KB) / 1024 ** 2;
  return HOURS_PER_MONTH * prices.kinesis.perStreamHour + gb * (prices.kinesis.perGbIngested + prices.kinesis.perGbRetrieved);
}

export type TableMode = TableCapacity['mode'];
/** write and read request units a month */
export type Units = { writes: number; reads: number };

/**
 * DynamoDB's request units of a fleet a month, in either capacity mode: on-demand bills each unit; provisioned bills
 * the capacity auto scaling keeps (the fleet's mean units a second over its target utilization), and the floor it
 * never scales under, for the table and each index (a floor counted on top: an upper bound).
 */
export function tableUnitsMonth(vehicles: number, perVehicle: Units, mode: TableMode): number {
  if (mode === 'on-demand') return vehicles * unitsMonth(perVehicle, mode);
  const floorHours = provisionedScaling.minCapacity * (1 + tableDefinition.indexes.length) * HOURS_PER_MONTH;
  const floor = floorHours * (prices.dynamodb.perWriteCapacityUnitHour + prices.dynamodb.perReadCapacityUnitHour);
  return vehicles * unitsMonth(perVehicle, mode) + floor;
}

/** Request units a month in either mode, without the provisioned floor: what they add to a table that has it. */
export function unitsMonth({ writes, reads }: Units, mode: TableMode): number {
  if (mode === 'on-demand')
    return (writes / 1e6) * prices.dynamodb.perMillionWriteRequestUnits + (reads / 1e6) * prices.dynamodb.perMillionReadRequestUnits;
  const capacityHours = (units: number) =>
    (units / SECONDS_PER_MONTH / (provisionedScaling.targetUtilizationPercent / 100)) * HOURS_PER_MONTH;
  return capacityHours(writes) * prices.dynamodb.perWriteCapacityUnitHour + capacityHours(reads) * prices.dynamodb.perReadCapacityUnitHour;
}

/** The capacity mode a fleet is priced in: whichever bills it less (docs/cost.md, "Sizing the table"). */
export const tableModeFor = (vehicles: number, perVehicle: Units): TableMode =>
  tableUnitsMonth(vehicles, perVehicle, 'provisioned') < tableUnitsMonth(vehicles, perVehicle, 'on-demand') ? 'provisioned' : 'on-demand';

/**
 * processPositions invocations a month: each shard's batcher runs once a window when records came, and again each
 * time a batch fills first.
 */
export function pipelineInvocations(vehicles: number, shards = shardsFor(vehicles)): number {
  const batchers = shards * pipelineSettings.parallelizationFactor;
  const windows = (30 * 86_400) / pipelineSettings.batchingWindowS;
  const recordsPerBatcherWindow = (vehicles * pipelineSettings.batchingWindowS) / REPORT_EVERY_S / batchers;
  return batchers * windows * Math.max(1, Math.ceil(recordsPerBatcherWindow / pipelineSettings.batchSize));
}

/** what a phone's requests cost the device function, as `npm run bench -- cost` measures them (measurePhone) */
export interface PhoneRequests {
  /** DynamoDB units each request spends (the token's and the IMEI's buckets) */
  writeUnitsPerRequest: number;
  readUnitsPerRequest: number;
  /** read units of a container's first request for a token: the token and its IMEIs, remembered 60 s */
  readUnitsPerLookup: number;
  /** the handler's time per request */
  ms: number;
}

/**
 * A phone's requests as measured on 2026-11-29 (`npm run bench -- cost`, DynamoDB Local): what device-cost prices
 * without a stack. Its buckets are written only when a function instance first sees them (takeFromQuietBucket), so a
 * phone reporting every 30 s spends no unit a request. The handler's time in AWS (a PutRecords to the stream instead
 * of a sink that takes the records at once, DynamoDB a few ms away) is taken as DEVICE_LAMBDA_MS: an assumption until
 * measured there.
 */
export const MEASURED_PHONE_REQUESTS: PhoneRequests = { writeUnitsPerRequest: 0, readUnitsPerRequest: 0, readUnitsPerLookup: 1.5, ms: 40 };
/** billed duration of one device request in AWS: a PutRecords and, when an instance first sees a phone, its buckets (assumed) */
export const DEVICE_LAMBDA_MS = 40;
export const DEVICE_LAMBDA_MB = deviceFunctionSettings.memoryMb;
/** CloudWatch Logs bills each event's message and 26 bytes */
const LOG_EVENT_OVERHEAD = 26;
/**
 * What a phone's request leaves in CloudWatch Logs, in bytes: the function's EMF line (its metrics: 393 bytes) and,
 * at INFO, its `request answered` line (388 bytes), both as printed by the endpoint on 2026-11-29; Lambda's START, END
 * and REPORT lines (about 70, 50 and 140 bytes, and 90 more on REPORT for a traced request); the HTTP API's access log
 * line (about 230 bytes in its format, infra/positions/device-endpoints.ts). Kept a month (the log groups' retention).
 */
const PHONE_LOG_BYTES = { metrics: 393, requestLine: 388, platform: [70, 50, 140], traced: 90, accessLog: 230 };
/** Lambda's sample of an actively traced function: the first request each second and 5 % of the rest */
const tracesPerSecond = (requestsPerSecond: number) => Math.min(1, requestsPerSecond) + 0.05 * Math.max(0, requestsPerSecond - 1);
/** The X-Ray traces a month of an actively traced function invoked this often, recorded at X-Ray's price. */
export const xrayMonth = (requestsPerSecond: number): number =>
  ((tracesPerSecond(requestsPerSecond) * SECONDS_PER_MONTH) / 1e6) * prices.xray.perMillionTracesRecorded;
/** A month of log lines of these sizes, a set each time, ingested and kept a month. */
const logsMonth = (times: number, lines: readonly number[]): number =>
  ((times * lines.reduce((sum, bytes) => sum + bytes + LOG_EVENT_OVERHEAD, 0)) / 1024 ** 3) *
  (prices.cloudwatch.logsPerGbIngested + prices.cloudwatch.logsPerGbMonthStored);

/**
 * An API call's logs: the function's `request answered` and EMF lines (as a phone request's), Lambda's three and its
 * trace's, the REST API's access log line (jsonWithStandardFields, about 350 bytes).
 */
export const apiCallLogsMonth = (calls: number): number =>
  logsMonth(calls, [PHONE_LOG_BYTES.requestLine, PHONE_LOG_BYTES.metrics, ...PHONE_LOG_BYTES.platform, PHONE_LOG_BYTES.traced, 350]);

/** The device functions' settings that decide what a request costs beyond its work (infra/positions/device-endpoints.ts). */
export interface DeviceFunctionSettings {
  /** Lambda's START, END and REPORT lines are written at INFO */
  systemLogLevel: string;
  tracing: Tracing;
  /** a `request answered` line and a metrics line each request: now only for errors (shared/devices/device-endpoint.ts) */
  eachRequestLogged: boolean;
}

/** The device functions as deployed: their settings, and a chain that logs and counts errors only. */
const DEVICE_FUNCTIONS: DeviceFunctionSettings = { ...deviceFunctionSettings, eachRequestLogged: false };
/** each warm function instance looks a token and its IMEIs up once a minute (they are remembered 60 s) */
const LOOKUPS_PER_MONTH = 30 * 24 * 60;
/** an AVL record with its share of the packet, TCP/IP headers and the ack, in bytes */
const TELTONIKA_BYTES_PER_POSITION = 150;
/**
 * metrics a listener bills all month (shared/devices/teltonika/counter-metrics.ts): open connections, sent every minute,
 * and records acknowledged, sent every minute units report; the refusal, failure and dead-letter counters are sent only
 * in the minutes they move, and CloudWatch bills a metric by the hours it is sent in
 */
export const LISTENER_METRICS = 2;
/**
 * The listener's footprint for a fleet of this size (docs/devices.md, "The listener's footprint"): a single task up to
 * the connections the load-balanced mode keeps a task at (teltonikaSettings.connectionsPerTask; a task holds 10,000
 * idle ones in 150 MiB, `npm run bench -- devices`), load-balanced above, as wherever a minute without a listener
 * while a task is replaced is not acceptable.
 */
export const SINGLE_TASK_UP_TO = teltonikaSettings.connectionsPerTask;
export const listenerModeFor = (vehicles: number): ListenerMode => (vehicles <= SINGLE_TASK_UP_TO ? 'single-task' : 'load-balanced');

export type HttpGateway = 'http-api' | 'rest-api';

/**
 * One phone's (or forwarded device's) month over HTTP: a gateway request, a Lambda invocation and the DynamoDB units
 * each position's request spends, and the token lookups.
 */
export function httpDeviceMonth(
  gateway: HttpGateway,
  vehicles: number,
  requests: PhoneRequests = MEASURED_PHONE_REQUESTS,
  settings: DeviceFunctionSettings = DEVICE_FUNCTIONS,
  /** the table's capacity mode the fleet is priced in: the request's units are billed as the pipeline's are */
  tableMode: TableMode = 'on-demand',
) {
  const perMillion = gateway === 'http-api' ? prices.apiGateway.perMillionHttpRequests : prices.apiGateway.perMillionRestRequests;
  const apiGateway = (POSITIONS_PER_MONTH / 1e6) * perMillion;
  const billedMs = Math.max(DEVICE_LAMBDA_MS, Math.ceil(requests.ms));
  const lambda =
    (POSITIONS_PER_MONTH / 1e6) * prices.lambda.perMillionRequests +
    POSITIONS_PER_MONTH * (billedMs / 1000) * (DEVICE_LAMBDA_MB / 1024) * prices.lambda.perGbSecondArm;
  const limits = unitsMonth(
    { writes: POSITIONS_PER_MONTH * requests.writeUnitsPerRequest, reads: POSITIONS_PER_MONTH * requests.readUnitsPerRequest },
    tableMode,
  );
  const tokenReads = unitsMonth({ writes: 0, reads: LOOKUPS_PER_MONTH * requests.readUnitsPerLookup }, tableMode);
  const traced = settings.tracing === Tracing.ACTIVE;
  const requestsPerSecond = (vehicles * POSITIONS_PER_MONTH) / SECONDS_PER_MONTH;
  const xray = traced ? xrayMonth(requestsPerSecond) / vehicles : 0;
  const [start, end, report] = PHONE_LOG_BYTES.platform as [number, number, number];
  const tracedShare = traced ? tracesPerSecond(requestsPerSecond) / requestsPerSecond : 0;
  const logs = logsMonth(POSITIONS_PER_MONTH, [
    ...(settings.eachRequestLogged ? [PHONE_LOG_BYTES.metrics, PHONE_LOG_BYTES.requestLine] : []),
    ...(settings.systemLogLevel === 'INFO' ? [start, end, report + tracedShare * PHONE_LOG_BYTES.traced] : []),
    ...(gateway === 'http-api' ? [PHONE_LOG_BYTES.accessLog] : []),
  ]);
  return { total: apiGateway + lambda + limits + tokenReads + logs + xray, apiGateway, lambda, limits, tokenReads, logs, xray, billedMs };
}

/**
 * The Teltonika listener's month for a fleet: the tasks and their public addresses, and the metrics; load-balanced, the
 * load balancer with its capacity units; single-task, the hosted zone of the name its address is kept in.
 */
export function teltonikaMonth(vehicles: number, mode: ListenerMode = listenerModeFor(vehicles)) {
  const tasks = mode === 'load-balanced' ? teltonikaSettings.minTasks : 1;
  const perTaskHour =
    (teltonikaSettings.cpu / 1024) * prices.fargate.perVcpuHourArm + (teltonikaSettings.memoryMiB / 1024) * prices.fargate.perGbHourArm;
  const fargate = tasks * HOURS_PER_MONTH * perTaskHour;
  const addresses = tasks * HOURS_PER_MONTH * prices.publicIpv4PerHour;
  const gbPerHour = (vehicles * (3600 / REPORT_EVERY_S) * TELTONIKA_BYTES_PER_POSITION) / 1e9;
  // An NLCU is 1 GB an hour, 100,000 active connections or 800 new connections a second, whichever is most used.
  const nlcu = Math.max(gbPerHour, vehicles / 100_000, vehicles / REPORT_EVERY_S / 800);
  const balancer =
    mode === 'load-balanced' ? HOURS_PER_MONTH * (prices.networkLoadBalancer.perHour + nlcu * prices.networkLoadBalancer.perNlcuHour) : 0;
  // Single-task: the zone; its queries (a unit resolves the name when it connects, at most once a TTL) stay far below a million.
  const name = mode === 'single-task' ? prices.route53.perHostedZoneMonth : 0;
  const metrics = LISTENER_METRICS * prices.cloudwatch.perMetricMonth;
  return { total: fargate + addresses + balancer + name + metrics, mode, tasks, fargate, addresses, balancer, name, metrics };
}

/**
 * The stack's alarms and dashboard, whatever the fleet: the metrics its 40 alarms watch (an alarm on metric math is
 * billed per metric in it: each MetricStat), counted on the synthesized stack, single-task listener, on 2026-11-29
 * (infra/monitoring/monitoring.ts; load-balanced: 39 alarms, 161 metrics), and one dashboard.
 */
const ALARM_METRICS = 163;
export const monitoringMonth = (): number => ALARM_METRICS * prices.cloudwatch.perAlarmMetricMonth + prices.cloudwatch.perDashboardMonth;

/** Amazon Location Service trackers for the same position updates, per vehicle-month. */
export const amazonLocationMonth = (): number => (POSITIONS_PER_MONTH / 1000) * prices.amazonLocation.perThousandPositionUpdates;
