/**
 * What one listener task holds (npm run bench -- devices, "Teltonika listener limits"): 10,000 idle registered
 * connections, each from its own source address behind the PROXY header, against the task's 512 MiB; and the
 * listener's CPU time for a 64 KB packet sent whole against one sent a byte at a time (no frame is re-copied on
 * every byte: bytes are queued as they arrive and copied once, shared/devices/tcp/byte-queue.ts).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { proxyHeaderV4 } from '../../shared/devices/tcp/proxy-protocol.ts';
import { DeviceSocket } from '../../shared/devices/teltonika/client.ts';
import { CODEC_8E } from '../../shared/devices/teltonika/codec.ts';
import { encodeAvlPacket, encodeImei } from '../../shared/devices/teltonika/encode.ts';
import { type BenchSize, type Row, round } from './report.ts';

/** the full figures, and the least that still runs every step (test/project/benches.whole-table.test.ts) */
const countsBySize = {
  full: { idleConnections: 10_000, wholePackets: 20, trickledPackets: 20, ioBytes: 65_000 },
  // a byte at a time is a write awaited per byte: 64 KB of them is most of the smallest run's minute
  smallest: { idleConnections: 200, wholePackets: 1, trickledPackets: 1, ioBytes: 1_000 },
} as const;
const { idleConnections: IDLE_CONNECTIONS, wholePackets: WHOLE_PACKETS, trickledPackets: TRICKLED_PACKETS } = countsBySize.full;
const MIB = 1024 * 1024;

export const listenerLimitsNotes = [
  `${IDLE_CONNECTIONS.toLocaleString('en')} connections each handshake (PROXY v2 header naming its own 10.x.y.z source, IMEI, 01) ` +
    'and stay idle; memory is the listener process’s own (its RSS is what counts against the Fargate task’s 512 MiB)',
  `64 KB packet: one Codec 8E record with a 65,000-byte IO element; "whole" is ${WHOLE_PACKETS} packets each sent in one write, ` +
    `back to back; "byte at a time" ${TRICKLED_PACKETS} packets each in 65,057 one-byte writes, each awaited ` +
    `(TCP may still join some bytes on the way); "one every" ${TRICKLED_PACKETS} whole packets at the trickle's pace, so the ` +
    'listener is as cold between packets and idle as long as for the trickle; ' +
    'CPU is the listener process’s time per packet: user (its code) and system (the kernel, which receives a trickled packet ' +
    'as 65,000 TCP segments whatever the listener does)',
];

interface Measure {
  counters: Record<string, number>;
  rss: number;
  heapUsed: number;
  external: number;
  cpu: NodeJS.CpuUsage;
}

function ask(child: ChildProcess): Promise<Measure> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as Measure));
    child.send('measure');
  });
}

async function startListenerProcess(): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(new URL('./listener-process.ts', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (message) => resolve((message as { port: number }).port)));
  return { child, port };
}

const sourceOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
const imeiOf = (n: number) => `35${String(n).padStart(13, '0')}`;

/** A registered unit's connection through the balancer, handshaken. */
async function connectUnit(port: number, n: number): Promise<DeviceSocket> {
  const connection = await DeviceSocket.connect('127.0.0.1', port);
  await connection.write(Buffer.concat([proxyHeaderV4(sourceOf(n), 40_000 + (n % 20_000)), encodeImei(imeiOf(n))]));
  const [answer] = await connection.read(1, 60_000);
  if (answer !== 1) throw new Error(`unit ${n} refused`);
  return connection;
}

/** The packet a byte at a time, each write awaited, then its ack. */
async function sendTrickled(connection: DeviceSocket, packet: Buffer): Promise<void> {
  for (let offset = 0; offset < packet.length; offset++) await connection.write(packet.subarray(offset, offset + 1));
  await connection.read(4, 120_000);
}

/** A row of packets sent between two measures: the listener's memory after, and its CPU time per packet. */
const packetsRow = (measure: string, before: Measure, after: Measure, packets: number): Row => ({
  measure,
  'listener RSS MiB': round(after.rss / MIB, 0),
  'heap MiB': round(after.heapUsed / MIB, 1),
  'per connection KiB': '',
  'user CPU ms per packet': round((after.cpu.user - before.cpu.user) / 1000 / packets, 2),
  'system CPU ms per packet': round((after.cpu.system - before.cpu.system) / 1000 / packets, 2),
});

export async function benchListenerLimits(size: BenchSize = 'full'): Promise<Row[]> {
  const counts = countsBySize[size];
  const { idleConnections: IDLE_CONNECTIONS, wholePackets: WHOLE_PACKETS, trickledPackets: TRICKLED_PACKETS } = counts;
  const rows: Row[] = [];
  const { child, port } = await startListenerProcess();
  try {
    const empty = await ask(child);
    const connections: DeviceSocket[] = [];
    for (let n = 0; n < IDLE_CONNECTIONS; n += 200) {
      connections.push(...(await Promise.all(Array.from({ length: 200 }, (_, i) => connectUnit(port, n + i)))));
    }
    const held = await ask(child);
    rows.push({
      measure: `${IDLE_CONNECTIONS.toLocaleString('en')} idle registered connections`,
      'listener RSS MiB': round(held.rss / MIB, 0),
      'heap MiB': round(held.heapUsed / MIB, 1),
      'per connection KiB': round((held.rss - empty.rss) / IDLE_CONNECTIONS / 1024, 1),
      'user CPU ms per packet': '',
      'system CPU ms per packet': '',
    });
    for (const connection of connections) connection.close();

    const packet = encodeAvlPacket(CODEC_8E, [
      {
        timestampMs: Date.parse('2026-03-02T08:00:00Z'),
        priority: 0,
        longitude: 28.1,
        latitude: -26.2,
        altitude: 1500,
        angle: 90,
        satellites: 9,
        speedKmh: 40,
        eventIoId: 0,
        io: new Map([[385, Buffer.alloc(counts.ioBytes, 7)]]),
      },
    ]);
    const whole = await connectUnit(port, IDLE_CONNECTIONS + 1);
    // one packet each way first, unmeasured, so neither figure carries the compiler's first pass over its code
    await sendTrickled(whole, packet);
    await whole.write(packet);
    await whole.read(4, 60_000);
    const beforeWhole = await ask(child);
    for (let n = 0; n < WHOLE_PACKETS; n++) {
      await whole.write(packet);
      await whole.read(4, 60_000);
    }
    const afterWhole = await ask(child);
    whole.close();
    const kb = `${Math.round(packet.length / 1024)} KB packet`;
    rows.push(packetsRow(`${kb} (${packet.length.toLocaleString('en')} bytes) sent whole`, beforeWhole, afterWhole, WHOLE_PACKETS));

    const trickle = await connectUnit(port, IDLE_CONNECTIONS + 2);
    const beforeTrickle = await ask(child);
    const trickleStarted = performance.now();
    for (let n = 0; n < TRICKLED_PACKETS; n++) {
      await sendTrickled(trickle, packet).catch(async (error) => {
        throw new Error(`the trickled packet was not acknowledged: ${JSON.stringify((await ask(child)).counters)}`, { cause: error });
      });
    }
    const trickleMs = (performance.now() - trickleStarted) / TRICKLED_PACKETS;
    const afterTrickle = await ask(child);
    trickle.close();
    rows.push(
      packetsRow(`${kb} sent a byte at a time (${round(trickleMs / 1000, 1)} s a packet)`, beforeTrickle, afterTrickle, TRICKLED_PACKETS),
    );

    // Whole packets at the trickle's pace: the listener as cold between packets, and idle as long, as for the trickle.
    const paced = await connectUnit(port, IDLE_CONNECTIONS + 3);
    const beforePaced = await ask(child);
    for (let n = 0; n < TRICKLED_PACKETS; n++) {
      const sent = performance.now();
      await paced.write(packet);
      await paced.read(4, 60_000);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, trickleMs - (performance.now() - sent))));
    }
    const afterPaced = await ask(child);
    paced.close();
    rows.push(packetsRow(`${kb} sent whole, one every ${round(trickleMs / 1000, 1)} s`, beforePaced, afterPaced, TRICKLED_PACKETS));
  } finally {
    child.send('stop');
  }
  return rows;
}
