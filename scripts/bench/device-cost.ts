/**
 * What each device entry point adds per vehicle-month (npm run bench -- device-cost), from the prices in
 * scripts/bench/prices.ts: per position for the HTTP entry points (API Gateway and a Lambda invocation each), a
 * fixed monthly cost for the Teltonika listener (load balancer, Fargate tasks, their addresses and metrics) spread
 * over the fleet. The pipeline's own cost (stream, processPositions, DynamoDB, S3) is the same for every entry point
 * and is in docs/cost.md's main table.
 */
import { teltonikaSettings } from '../../infra/teltonika-service.ts';
import { metricNames } from '../../shared/metric-names.ts';
import { prices } from './prices.ts';
import { type Row, round } from './report.ts';

const HOURS_PER_MONTH = 730;
const REPORT_EVERY_S = 30;
const POSITIONS_PER_MONTH = (30 * 86_400) / REPORT_EVERY_S;
/** billed duration of one device request: a cached token and IMEIs, then one PutRecords (an assumption until measured in AWS) */
const DEVICE_LAMBDA_MS = 40;
const DEVICE_LAMBDA_GB = 256 / 1024;
/** token reads: each warm function instance reads a token and its IMEIs once a minute (1 GetItem + 2 small BatchGetItems) */
const TOKEN_READ_UNITS_PER_MINUTE = 1.5;
/** an AVL record with its share of the packet, TCP/IP headers and the ack, in bytes */
const TELTONIKA_BYTES_PER_POSITION = 150;
/** metrics the listener publishes (shared/metric-names.ts, teltonika*) */
const LISTENER_METRICS = Object.keys(metricNames).filter((name) => name.startsWith('teltonika')).length;

const fleets = [100, 1_000, 10_000];

export const deviceCostNotes = [
  `${prices.region}, list prices of ${prices.asOf} (scripts/bench/prices.ts names each page); a vehicle reports every ` +
    `${REPORT_EVERY_S} s: ${POSITIONS_PER_MONTH.toLocaleString('en')} positions a month`,
  `HTTP: one API Gateway REST request and one Lambda invocation (arm64, 256 MB, ${DEVICE_LAMBDA_MS} ms billed: assumed, ` +
    'not measured in AWS) per position, and the token lookups (cached 60 s per function instance)',
  `Teltonika: a Network Load Balancer, ${teltonikaSettings.minTasks} Fargate tasks (${teltonikaSettings.cpu / 1024} vCPU, ` +
    `${teltonikaSettings.memoryMiB} MiB, arm64) with a public IPv4 address each, ${LISTENER_METRICS} custom metrics, and NLCUs ` +
    `for the fleet's connections and bytes (${TELTONIKA_BYTES_PER_POSITION} bytes a position), spread over the fleet; ` +
    '`npm run bench -- devices` shows two tasks carry 10,000 units',
  'not included: the positions pipeline (the same for every entry point, docs/cost.md), data transfer out (acks are 4 bytes) ' +
    'and the first-year free tiers',
];

/** A fleet's monthly cost per fleet size, as table columns. */
const fleetColumns = (monthly: (vehicles: number) => number): Row =>
  Object.fromEntries(fleets.map((vehicles) => [`${vehicles.toLocaleString('en')} vehicles (fleet)`, `$${round(monthly(vehicles), 2)}`]));

/** Per position: a REST request, a Lambda invocation and the token lookups. */
function httpCost(entryPoint: string): Row {
  const apiGateway = (POSITIONS_PER_MONTH / 1e6) * prices.apiGateway.perMillionRestRequests;
  const lambda =
    (POSITIONS_PER_MONTH / 1e6) * prices.lambda.perMillionRequests +
    POSITIONS_PER_MONTH * (DEVICE_LAMBDA_MS / 1000) * DEVICE_LAMBDA_GB * prices.lambda.perGbSecondArm;
  const tokenReads = ((30 * 24 * 60 * TOKEN_READ_UNITS_PER_MINUTE) / 1e6) * prices.dynamodb.perMillionReadRequestUnits;
  const perVehicle = apiGateway + lambda + tokenReads;
  return {
    'entry point': entryPoint,
    'per vehicle-month': `$${round(perVehicle, 3)}`,
    ...fleetColumns((vehicles) => perVehicle * vehicles),
    breakdown: `API Gateway $${round(apiGateway, 3)}, Lambda $${round(lambda, 3)}, token reads $${round(tokenReads, 4)}`,
  };
}

/** The listener's month: the tasks, their addresses, the load balancer with the fleet's capacity units, the metrics. */
function teltonikaMonth(vehicles: number) {
  const tasks = teltonikaSettings.minTasks;
  const perTaskHour =
    (teltonikaSettings.cpu / 1024) * prices.fargate.perVcpuHourArm + (teltonikaSettings.memoryMiB / 1024) * prices.fargate.perGbHourArm;
  const fargate = tasks * HOURS_PER_MONTH * perTaskHour;
  const addresses = tasks * HOURS_PER_MONTH * prices.publicIpv4PerHour;
  const gbPerHour = (vehicles * (3600 / REPORT_EVERY_S) * TELTONIKA_BYTES_PER_POSITION) / 1e9;
  // An NLCU is 1 GB an hour, 100,000 active connections or 800 new connections a second, whichever is most used.
  const nlcu = Math.max(gbPerHour, vehicles / 100_000, vehicles / REPORT_EVERY_S / 800);
  const balancer = HOURS_PER_MONTH * (prices.networkLoadBalancer.perHour + nlcu * prices.networkLoadBalancer.perNlcuHour);
  const metrics = LISTENER_METRICS * prices.cloudwatch.perMetricMonth;
  return { total: fargate + addresses + balancer + metrics, fargate, addresses, balancer, metrics };
}

export function deviceCost(): Row[] {
  const [smallest, largest] = [teltonikaMonth(fleets[0] as number), teltonikaMonth(fleets.at(-1) as number)];
  return [
    httpCost('OsmAnd (a phone, the Traccar Client app)'),
    httpCost('Traccar forwarding (one request a position)'),
    {
      'entry point': 'Teltonika over TCP (fixed cost a month, spread)',
      'per vehicle-month': fleets
        .map((vehicles) => `$${round(teltonikaMonth(vehicles).total / vehicles, 4)} at ${vehicles.toLocaleString('en')}`)
        .join(', '),
      ...fleetColumns((vehicles) => teltonikaMonth(vehicles).total),
      breakdown:
        `Fargate $${round(smallest.fargate, 2)}, load balancer $${round(smallest.balancer, 2)}–$${round(largest.balancer, 2)}, ` +
        `IPv4 $${round(smallest.addresses, 2)}, metrics $${round(smallest.metrics, 2)}`,
    },
  ];
}
