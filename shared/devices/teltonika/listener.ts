/**
 * The Teltonika TCP listener (docs/devices.md, "Teltonika"): the same code under `npm start` and as the Fargate
 * service behind the Network Load Balancer in AWS. Per connection: the PROXY protocol v2 header when the balancer
 * sends one, the IMEI handshake (01 for a registered vehicle, 00 and close for anything else), then AVL packets,
 * each acknowledged with its record count only once the sink has durably taken its records; records of a
 * CRC-valid packet that cannot be used are put on the stream to be dead-lettered, and the packet is acknowledged,
 * so no content can jam a unit. Only a CRC or framing error, or a sink that failed, closes the connection
 * unacknowledged (the unit reconnects and resends what it still holds). Guessing, floods and slow connections are
 * bounded (docs/devices.md, "Security"): deadlines for the handshake and for each packet from its first byte, an
 * idle timeout only an acknowledged packet resets, caps per task and per source address, refused handshakes held
 * once a source has used its budget, one live connection per IMEI.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { BucketPolicy } from '../../domain/token-bucket.ts';
import { positionOf } from '../../domain/tracking/position.ts';
import type { FuelSensorSetting } from '../../domain/tracking/settings.ts';
import { DEFAULT_FUEL_SENSOR } from '../../domain/tracking/settings.ts';
import { logger } from '../../logger.ts';
import type { PositionSink } from '../position-sink.ts';
import { ByteQueue } from './byte-queue.ts';
import { AvlRefusal, decodeAvlData, readFrame, readImei } from './codec.ts';
import { MAX_PROXY_HEADER_BYTES, ProxyHeaderRefused, readProxyHeader } from './proxy-protocol.ts';
import { toPositionRecord } from './records.ts';
import { SourceGuard } from './source-guard.ts';

/** What the listener needs to know of a registered device. */
interface RegisteredDevice {
  fuelSensor?: FuelSensorSetting;
}

export interface TeltonikaListenerOptions {
  port: number;
  host?: string;
  sink: PositionSink;
  /** the vehicle registered with the IMEI, or undefined: the handshake's answer */
  findDevice(imei: string): Promise<RegisteredDevice | undefined>;
  /** every connection starts with a PROXY protocol v2 header (the NLB's target group sends it): its source is the unit's */
  proxyProtocol?: boolean;
  /** the largest AVL data field accepted (Teltonika units send at most a few KB) */
  maxPacketBytes?: number;
  /** from accepting a connection to its IMEI's answer */
  handshakeTimeoutMs?: number;
  /** from a packet's first byte to its last */
  packetTimeoutMs?: number;
  /** a connection with no acknowledged packet for this long is closed (bytes that make no packet do not count) */
  idleTimeoutMs?: number;
  /** open connections per task; beyond, new ones are closed at once */
  maxConnections?: number;
  /** open connections per source address: a mobile carrier's CGNAT address carries hundreds of units */
  maxConnectionsPerSource?: number;
  /** handshakes in progress per source address (held refusals among them) */
  maxPendingHandshakesPerSource?: number;
  /** refused handshakes a source address may have answered at once; beyond, each is held `refusalHoldMs` before its 00 */
  refusals?: BucketPolicy;
  refusalHoldMs?: number;
  /** how long an IMEI found unknown is answered 00 without a lookup (a vehicle added meanwhile waits this long) */
  unknownImeiMemoryMs?: number;
}

/**
 * A small read that leaves a frame unfinished makes the next read wait READ_COALESCE_MS, twice as long after each
 * such read up to MAX_READ_COALESCE_MS, so bytes trickled one at a time gather in the socket's buffer and are read
 * together: a packet sent a byte at a time costs a few reads, not one per byte. A finished frame reads on at once, so
 * a unit sending whole packets never waits; the packet deadline still runs from the first byte.
 */
const SMALL_CHUNK_BYTES = 1024;
const READ_COALESCE_MS = 100;
const MAX_READ_COALESCE_MS = 1600;

/** The defaults (docs/devices.md, "Security", says why each is what it is). */
export const TELTONIKA_DEFAULTS = {
  proxyProtocol: false,
  maxPacketBytes: 64 * 1024,
  handshakeTimeoutMs: 30_000,
  packetTimeoutMs: 60_000,
  idleTimeoutMs: 10 * 60_000,
  maxConnections: 20_000,
  maxConnectionsPerSource: 2_000,
  maxPendingHandshakesPerSource: 64,
  refusals: { perSecond: 1, burst: 20 },
  refusalHoldMs: 60_000,
  unknownImeiMemoryMs: 5 * 60_000,
} as const satisfies Partial<TeltonikaListenerOptions>;

/** Running totals since the listener started; the AWS service publishes them as metrics, the alarms watch some. */
export interface TeltonikaCounters {
  connections: number;
  openConnections: number;
  /** connections closed at once: over the task's or the source address's cap, or its handshakes in progress */
  connectionsRefused: number;
  handshakesAccepted: number;
  /** handshakes of IMEIs no vehicle has (each logged with its remote address) */
  handshakesRejected: number;
  /** of those, refusals held before their answer: the source had used its budget */
  handshakesHeld: number;
  handshakeTimeouts: number;
  /** older connections closed because a new one handshook with the same IMEI */
  connectionsReplaced: number;
  packetsAcked: number;
  recordsAcked: number;
  crcFailures: number;
  /** framing errors (no preamble, a length over the limit, a bad PROXY header): closed unacknowledged */
  malformedPackets: number;
  /** records of CRC-valid packets that could not be used (a jammed unit's time, a packet unreadable inside): acknowledged, dead-lettered */
  recordsDeadLettered: number;
  /** records of well-formed packets the sink did not take: never acknowledged, the unit resends them */
  recordsNotAcked: number;
  packetTimeouts: number;
  idleTimeouts: number;
}

export interface TeltonikaListener {
  port: number;
  counters: Readonly<TeltonikaCounters>;
  close(): Promise<void>;
}

type Settings = Omit<TeltonikaListenerOptions, keyof typeof TELTONIKA_DEFAULTS> & {
  -readonly [K in keyof typeof TELTONIKA_DEFAULTS]: K extends 'refusals'
    ? BucketPolicy
    : (typeof TELTONIKA_DEFAULTS)[K] extends boolean
      ? boolean
      : number;
};

/** What the connections of one listener share. */
interface Shared {
  settings: Settings;
  counters: TeltonikaCounters;
  guard: SourceGuard;
  /** the live connection of each IMEI */
  live: Map<string, Socket>;
}

export async function startTeltonikaListener(options: TeltonikaListenerOptions): Promise<TeltonikaListener> {
  const settings: Settings = { ...TELTONIKA_DEFAULTS, ...options };
  const counters: TeltonikaCounters = {
    connections: 0,
    openConnections: 0,
    connectionsRefused: 0,
    handshakesAccepted: 0,
    handshakesRejected: 0,
    handshakesHeld: 0,
    handshakeTimeouts: 0,
    connectionsReplaced: 0,
    packetsAcked: 0,
    recordsAcked: 0,
    crcFailures: 0,
    malformedPackets: 0,
    recordsDeadLettered: 0,
    recordsNotAcked: 0,
    packetTimeouts: 0,
    idleTimeouts: 0,
  };
  const shared: Shared = { settings, counters, guard: new SourceGuard(settings), live: new Map() };
  const sockets = new Set<Socket>();
  // A socket stops reading from the kernel as soon as it holds a chunk nobody took: bytes trickled one at a time
  // wait in the kernel's buffer and come up together at the next read (READ_COALESCE_MS), not as a read each.
  const server: Server = createServer({ highWaterMark: 1 }, (socket) => {
    sockets.add(socket);
    counters.connections++;
    counters.openConnections++;
    socket.once('close', () => {
      sockets.delete(socket);
      counters.openConnections--;
    });
    serveDevice(socket, shared);
  });
  server.maxConnections = settings.maxConnections;
  server.on('drop', () => counters.connectionsRefused++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host ?? '0.0.0.0', backlog: 4096 }, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    counters,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One device's connection: bytes are queued and handled in order, one frame at a time. */
function serveDevice(socket: Socket, { settings, counters, guard, live }: Shared): void {
  const queue = new ByteQueue();
  let source: string | undefined = settings.proxyProtocol ? undefined : (socket.remoteAddress ?? 'unknown');
  let device: { imei: string; fuelSensor: FuelSensorSetting } | undefined;
  let handshaking = false;
  let working = false;
  /** bytes the queue must hold before parsing can progress */
  let needed = 1;
  let coalescing = false;
  let lastReadSmall = false;
  /** how long a read after a small one waits while the frame is unfinished: 0 once a frame is finished */
  let coalesceMs = 0;
  /** false once the connection only waits to answer 00 and close */
  let reading = true;
  let packetTimer: NodeJS.Timeout | undefined;
  let idleTimer: NodeJS.Timeout | undefined;

  const closeWith = (counter: keyof TeltonikaCounters) => () => {
    counters[counter]++;
    socket.destroy();
  };
  const handshakeTimer = setTimeout(closeWith('handshakeTimeouts'), settings.handshakeTimeoutMs);
  const restartIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(closeWith('idleTimeouts'), settings.idleTimeoutMs);
  };

  socket.setNoDelay(true);
  socket.on('error', (error) => logger.debug('teltonika connection error', { error }));
  socket.once('close', () => {
    clearTimeout(handshakeTimer);
    clearTimeout(packetTimer);
    clearTimeout(idleTimer);
    if (source !== undefined) guard.release(source);
    if (handshaking && source !== undefined) guard.endHandshake(source);
    if (device && live.get(device.imei) === socket) live.delete(device.imei);
  });

  /** The source address is known (from the socket, or the PROXY header): it must be under its caps. */
  const admit = (address: string): boolean => {
    if (!guard.admit(address)) {
      logger.warn('teltonika connection refused: the source address holds its cap of connections', { remote_address: address });
      counters.connectionsRefused++;
      socket.destroy();
      return false;
    }
    source = address;
    if (!guard.beginHandshake(address)) {
      logger.warn('teltonika connection refused: the source address has its cap of handshakes in progress', { remote_address: address });
      counters.connectionsRefused++;
      socket.destroy();
      return false;
    }
    handshaking = true;
    return true;
  };

  const readProxy = (): boolean => {
    const header = readProxyHeader(queue.peek(Math.min(queue.length, MAX_PROXY_HEADER_BYTES)));
    if (!header) {
      needed = queue.length < 16 ? 16 : 16 + queue.peek(16).readUInt16BE(14);
      return false;
    }
    queue.take(header.headerBytes);
    return admit(header.kind === 'proxied' ? header.sourceAddress : (socket.remoteAddress ?? 'unknown'));
  };

  const handshake = async (address: string): Promise<boolean> => {
    needed = 2;
    if (queue.length < 2) return false;
    needed = 2 + queue.peek(2).readUInt16BE(0);
    const hello = readImei(queue.peek(needed));
    if (!hello) return false;
    queue.take(queue.peek(2).readUInt16BE(0) + 2);
    const known = !guard.isKnownUnknown(hello.imei);
    const found = known ? await settings.findDevice(hello.imei) : undefined;
    if (socket.destroyed) return false;
    if (!found) {
      if (known) guard.rememberUnknown(hello.imei);
      refuseHandshake(address, hello.imei);
      return false;
    }
    clearTimeout(handshakeTimer);
    guard.endHandshake(address);
    handshaking = false;
    counters.handshakesAccepted++;
    const older = live.get(hello.imei);
    if (older && older !== socket) {
      counters.connectionsReplaced++;
      logger.info('teltonika connection replaced by a newer one of the same IMEI', { imei: hello.imei, remote_address: address });
      older.destroy();
    }
    live.set(hello.imei, socket);
    device = { imei: hello.imei, fuelSensor: found.fuelSensor ?? DEFAULT_FUEL_SENSOR };
    socket.write(Buffer.from([0x01]));
    restartIdle();
    return true;
  };

  /** 00 and close, at once while the source has refusals left in its budget, else after a hold: guessing crawls. */
  const refuseHandshake = (address: string, imei: string) => {
    counters.handshakesRejected++;
    const atOnce = guard.takeRefusal(address);
    if (!atOnce) counters.handshakesHeld++;
    logger.warn('teltonika handshake refused: no vehicle has this IMEI', { imei, remote_address: address, held: !atOnce });
    clearTimeout(handshakeTimer);
    // Whatever the refused unit sends after its IMEI is not read: the connection only says 00 and closes.
    reading = false;
    const answer = () => socket.end(Buffer.from([0x00]), () => socket.destroy());
    if (atOnce) answer();
    else setTimeout(answer, settings.refusalHoldMs).unref();
  };

  /** Handles the next frame; false when more bytes are needed (or the connection is done). */
  const nextFrame = async (imei: string, fuelSensor: FuelSensorSetting): Promise<boolean> => {
    needed = 1;
    if (queue.length === 0) return false;
    const header = queue.peek(8);
    const start = readFrame(header, settings.maxPacketBytes);
    if (start.kind === 'keep-alive') {
      queue.take(1);
      return true;
    }
    const frameBytes = header.length < 8 ? Number.POSITIVE_INFINITY : 8 + header.readUInt32BE(4) + 4;
    if (queue.length < frameBytes) {
      needed = Math.min(frameBytes, 12);
      if (header.length === 8) needed = frameBytes;
      packetTimer ??= setTimeout(closeWith('packetTimeouts'), settings.packetTimeoutMs);
      return false;
    }
    clearTimeout(packetTimer);
    packetTimer = undefined;
    const frame = readFrame(queue.take(frameBytes), settings.maxPacketBytes);
    if (frame.kind !== 'packet') return true;
    const { records, count } = usableRecords(imei, frame.data, fuelSensor, new Date());
    try {
      await settings.sink.put(records);
    } catch (error) {
      counters.recordsNotAcked += count;
      logger.error('teltonika records not accepted: not acknowledged, the unit resends them', { imei, records: count, error });
      socket.destroy();
      return false;
    }
    const ack = Buffer.alloc(4);
    ack.writeUInt32BE(count);
    socket.write(ack);
    counters.packetsAcked++;
    counters.recordsAcked += count;
    restartIdle();
    return true;
  };

  /** The packet's records for the sink; those that cannot be used go too, marked so, for the pipeline to dead-letter. */
  const usableRecords = (imei: string, data: Buffer, fuelSensor: FuelSensorSetting, receivedAt: Date) => {
    const base = { imei, protocol: 'teltonika', received_at: receivedAt.toISOString() };
    let decoded: ReturnType<typeof decodeAvlData>;
    try {
      decoded = decodeAvlData(data);
    } catch (error) {
      if (!(error instanceof AvlRefusal)) throw error;
      // CRC-valid, so the unit sent it as it meant to: acknowledged with the count it declares, never resent.
      const count = data[1] ?? 0;
      counters.recordsDeadLettered += Math.max(1, count);
      logger.warn('teltonika packet unreadable: acknowledged and dead-lettered', { imei, reason: error.message });
      return { records: [{ ...base, unusable: error.message, avl_data: data.toString('hex') }], count };
    }
    const records = decoded.records.map((avl) => {
      const record = toPositionRecord(imei, avl, fuelSensor, receivedAt);
      const checked = positionOf(record);
      if (checked.ok) return checked.position;
      counters.recordsDeadLettered++;
      logger.warn('teltonika record unusable: acknowledged and dead-lettered', { imei, reason: checked.reason });
      return { ...record, unusable: checked.reason };
    });
    return { records, count: decoded.records.length };
  };

  const work = async (): Promise<void> => {
    if (working) return;
    working = true;
    // Reading waits while a packet is being stored: a unit sends its next packet only after the ack anyway.
    try {
      while (!socket.destroyed) {
        let progressed: boolean;
        if (source === undefined) progressed = readProxy();
        else if (!device) progressed = await handshake(source);
        else progressed = await nextFrame(device.imei, device.fuelSensor);
        if (!progressed) break;
      }
    } catch (error) {
      refuse(error);
    } finally {
      working = false;
      readOn();
    }
  };

  /** Takes in every byte the socket holds (a read copies them once), then parses when they can make progress. */
  const drain = (): void => {
    if (socket.destroyed || !reading || working || coalescing) return;
    let read = 0;
    for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
      queue.push(chunk);
      read += chunk.length;
    }
    if (read === 0) return;
    lastReadSmall = read < SMALL_CHUNK_BYTES;
    if (queue.length >= needed) {
      coalesceMs = 0;
      void work();
      return;
    }
    if (lastReadSmall) coalesceMs = Math.min(Math.max(coalesceMs * 2, READ_COALESCE_MS), MAX_READ_COALESCE_MS);
    readOn();
  };

  /** Reads on at once after a large read or a finished frame, coalesceMs later while a frame trickles in. */
  const readOn = (): void => {
    if (!lastReadSmall || coalesceMs === 0) {
      drain();
      return;
    }
    coalescing = true;
    setTimeout(() => {
      coalescing = false;
      lastReadSmall = false;
      drain();
    }, coalesceMs).unref();
  };

  const refuse = (error: unknown): void => {
    if (error instanceof AvlRefusal && error.reason === 'bad crc') counters.crcFailures++;
    else if (error instanceof AvlRefusal || error instanceof ProxyHeaderRefused) counters.malformedPackets++;
    if (error instanceof AvlRefusal || error instanceof ProxyHeaderRefused) {
      logger.warn('teltonika bytes refused: not acknowledged, connection closed', {
        imei: device?.imei,
        remote_address: source ?? socket.remoteAddress,
        reason: error.message,
      });
    } else {
      logger.error('teltonika connection failed', { imei: device?.imei, error: error as Error });
    }
    socket.destroy();
  };

  if (source !== undefined && !admit(source)) return;
  socket.on('readable', drain);
}
