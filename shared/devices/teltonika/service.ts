/**
 * The Teltonika listener as the container of the Fargate service behind the Network Load Balancer
 * (infra/positions/teltonika-service.ts): records go to the positions stream, devices are looked up in the table, and the
 * counters are published as EMF metrics once a minute (the alarms watch rejected handshakes and their bursts, CRC
 * failures, records dead-lettered and records not acknowledged). ECS stops a task with SIGTERM: it stops accepting, and
 * units reconnect to another task.
 */
import { config } from '../../config.ts';
import { logger } from '../../logger.ts';
import { findVehicleByImei } from '../../store/vehicles.ts';
import { MetricUnit, metricNames, metrics } from '../../telemetry.ts';
import { positionSink } from '../sinks.ts';
import { startTeltonikaListener, type TeltonikaCounters } from './listener.ts';

const PUBLISH_EVERY_MS = 60_000;

const port = Number(process.env.DEVICE_TCP_PORT ?? 5027);

const listener = await startTeltonikaListener({
  port,
  // the positions stream: POSITIONS_STREAM_NAME must be set (nothing registers a local sink here)
  sink: positionSink(),
  findDevice: findVehicleByImei,
  proxyProtocol: config.teltonikaProxyProtocol(),
});
logger.info('teltonika listener ready', { port: listener.port });

/** Each counter's growth since the last minute (open connections as they are now). */
const published: Partial<TeltonikaCounters> = {};
const counted: Array<[keyof TeltonikaCounters, string]> = [
  ['handshakesRejected', metricNames.teltonikaHandshakesRejected],
  ['handshakesHeld', metricNames.teltonikaHandshakesHeld],
  ['connectionsRefused', metricNames.teltonikaConnectionsRefused],
  ['recordsDeadLettered', metricNames.teltonikaRecordsDeadLettered],
  ['crcFailures', metricNames.teltonikaCrcFailures],
  ['malformedPackets', metricNames.teltonikaMalformedPackets],
  ['recordsAcked', metricNames.teltonikaRecordsAcked],
  ['recordsNotAcked', metricNames.teltonikaRecordsNotAcked],
];
setInterval(() => {
  const counters = listener.counters;
  metrics.addMetric(metricNames.teltonikaOpenConnections, MetricUnit.Count, counters.openConnections);
  for (const [counter, name] of counted) {
    metrics.addMetric(name, MetricUnit.Count, counters[counter] - (published[counter] ?? 0));
    published[counter] = counters[counter];
  }
  metrics.publishStoredMetrics();
}, PUBLISH_EVERY_MS);

process.once('SIGTERM', async () => {
  await listener.close();
  metrics.publishStoredMetrics();
  process.exit(0);
});
