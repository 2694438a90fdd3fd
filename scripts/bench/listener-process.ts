/**
 * The Teltonika listener alone in a process of its own, for `npm run bench -- devices` to measure what a Fargate
 * task holds: every IMEI is registered, the sink takes records at once, and the balancer's PROXY v2 header names
 * each connection's source. Answers its port, then its memory and CPU time whenever the parent asks.
 */
import { startTeltonikaListener } from '../../shared/devices/teltonika/listener.ts';

const listener = await startTeltonikaListener({
  port: 0,
  host: '127.0.0.1',
  proxyProtocol: true,
  sink: { put: async () => undefined },
  findDevice: async () => ({}),
});

process.on('message', (message: string) => {
  if (message === 'measure') {
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    process.send?.({ rss, heapUsed, external, arrayBuffers, cpu: process.cpuUsage(), counters: listener.counters });
  }
  if (message === 'stop') void listener.close().then(() => process.exit(0));
});
process.send?.({ port: listener.port });
