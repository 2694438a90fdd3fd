/**
 * What each device entry point adds per vehicle-month (npm run bench -- device-cost), from the prices in
 * scripts/bench/prices.ts: per position for the HTTP entry points (an API Gateway request and a Lambda invocation
 * each), a fixed monthly cost for the Teltonika listener (load balancer, Fargate tasks, their addresses and metrics)
 * spread over the fleet. The pipeline's own cost (stream, processPositions, DynamoDB, S3) is the same for every entry
 * point: `npm run bench -- cost` adds it, for the all-in figure per fleet size.
 */
import { type ListenerMode, teltonikaSettings } from '../../infra/positions/teltonika-service.ts';
import {
  DEVICE_LAMBDA_MB,
  DEVICE_LAMBDA_MS,
  FLEETS,
  type HttpGateway,
  httpDeviceMonth,
  LISTENER_METRICS,
  POSITIONS_PER_MONTH,
  REPORT_EVERY_S,
  SINGLE_TASK_UP_TO,
  teltonikaMonth,
} from './fleet-cost.ts';
import { prices } from './prices.ts';
import { type Row, round } from './report.ts';

export const deviceCostNotes = [
  `${prices.region}, list prices of ${prices.asOf} (scripts/bench/prices.ts names each page); a vehicle reports every ` +
    `${REPORT_EVERY_S} s: ${POSITIONS_PER_MONTH.toLocaleString('en')} positions a month`,
  `HTTP: one API Gateway request (HTTP API $${prices.apiGateway.perMillionHttpRequests}, REST API ` +
    `$${prices.apiGateway.perMillionRestRequests} a million) and one Lambda invocation (arm64, ${DEVICE_LAMBDA_MB} MB, ` +
    `${DEVICE_LAMBDA_MS} ms billed: assumed, not measured in AWS) per position, the bucket writes a request ` +
    'makes (none for a phone slower than its buckets refill, once an instance has seen it), the token lookups ' +
    '(remembered 60 s per function instance), DynamoDB units as `npm run bench -- cost` measures ' +
    "them; the log lines each request leaves and the traces Lambda samples, as the device functions' settings make them " +
    '(infra/positions/device-endpoints.ts: an ordinary request leaves only its access log line, traced only when the ' +
    'caller sampled)',
  `Teltonika, single-task (teltonikaListenerMode, up to ${SINGLE_TASK_UP_TO.toLocaleString('en')} units): one Fargate task ` +
    `(${teltonikaSettings.cpu / 1024} vCPU, ${teltonikaSettings.memoryMiB} MiB, arm64) with a public IPv4 address, the Route 53 ` +
    `zone its address is kept in, ${LISTENER_METRICS} custom metrics billed all month; load-balanced (above): a Network Load ` +
    `Balancer and its NLCUs for the fleet's connections and bytes, ${teltonikaSettings.minTasks} tasks with an address each, ` +
    'the metrics; spread over the fleet',
  'not included: the positions pipeline (the same for every entry point: `npm run bench -- cost`), data transfer out (acks are ' +
    '4 bytes) and the first-year free tiers',
];

const usd = (value: number) => `$${value < 0.1 ? round(value, 4) : round(value, 2)}`;

/** A fleet's monthly cost per fleet size, as table columns. */
const fleetColumns = (monthly: (vehicles: number) => number): Row =>
  Object.fromEntries(FLEETS.map((vehicles) => [`${vehicles.toLocaleString('en')} vehicles (fleet)`, usd(monthly(vehicles))]));

function httpRow(entryPoint: string, gateway: HttpGateway): Row {
  const month = httpDeviceMonth(gateway, 1_000);
  return {
    'entry point': entryPoint,
    'per vehicle-month': usd(month.total),
    ...fleetColumns((vehicles) => httpDeviceMonth(gateway, vehicles).total * vehicles),
    breakdown:
      `API Gateway ${usd(month.apiGateway)}, Lambda ${usd(month.lambda)}, buckets ${usd(month.limits)}, token reads ` +
      `${usd(month.tokenReads)}, logs ${usd(month.logs)}, X-Ray ${usd(month.xray)}`,
  };
}

function teltonikaRow(mode: ListenerMode): Row {
  const [smallest, largest] = [teltonikaMonth(FLEETS[0], mode), teltonikaMonth(FLEETS[FLEETS.length - 1] as number, mode)];
  const balancer = mode === 'load-balanced' ? `load balancer ${usd(smallest.balancer)}–${usd(largest.balancer)}, ` : '';
  const name = mode === 'single-task' ? `hosted zone ${usd(smallest.name)}, ` : '';
  return {
    'entry point': `Teltonika over TCP, ${mode} (fixed cost a month, spread)`,
    'per vehicle-month': FLEETS.map(
      (vehicles) => `${usd(teltonikaMonth(vehicles, mode).total / vehicles)} at ${vehicles.toLocaleString('en')}`,
    ).join(', '),
    ...fleetColumns((vehicles) => teltonikaMonth(vehicles, mode).total),
    breakdown:
      `Fargate ${usd(smallest.fargate)} (${smallest.tasks} task${smallest.tasks > 1 ? 's' : ''}), ${balancer}` +
      `IPv4 ${usd(smallest.addresses)}, ${name}metrics ${usd(smallest.metrics)}`,
  };
}

export function deviceCost(): Row[] {
  return [
    httpRow('OsmAnd (a phone, the Traccar Client app), HTTP API: DevicesHttpUrl', 'http-api'),
    httpRow('Traccar forwarding (one request a position), HTTP API', 'http-api'),
    httpRow('either, REST API: DevicesUrl (while phones move over)', 'rest-api'),
    teltonikaRow('single-task'),
    teltonikaRow('load-balanced'),
  ];
}
