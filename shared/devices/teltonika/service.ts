/**
 * The Teltonika listener as the container of the Fargate service, one task with a public address or several behind a
 * Network Load Balancer (infra/positions/teltonika-service.ts): records go to the positions stream, devices are looked up
 * in the table, and the counters are published as EMF metrics once a minute, those that moved (counter-metrics.ts; the
 * alarms watch rejected handshakes and their bursts, CRC failures, records dead-lettered and records not acknowledged).
 * ECS stops a task with SIGTERM: it stops accepting, and units reconnect (to another task, or to the new one's address).
 */
import { config } from '../../config.ts';
import { logger } from '../../logger.ts';
import { findVehicleByImei } from '../../store/vehicles.ts';
import { MetricUnit, metrics } from '../../telemetry.ts';
import { positionSink } from '../sinks.ts';
import { CounterMetrics } from './counter-metrics.ts';
import { startTeltonikaListener } from './listener.ts';

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

const minuteMetrics = new CounterMetrics();
setInterval(() => {
  for (const [name, value] of minuteMetrics.minute(listener.counters)) metrics.addMetric(name, MetricUnit.Count, value);
  metrics.publishStoredMetrics();
}, PUBLISH_EVERY_MS);

process.once('SIGTERM', async () => {
  await listener.close();
  metrics.publishStoredMetrics();
  process.exit(0);
});
