/**
 * The Teltonika TCP listener (docs/devices.md, "Teltonika"): the same code under `npm start` and as the Fargate
 * service behind the Network Load Balancer in AWS. Per connection: the IMEI handshake (01 for a registered vehicle,
 * 00 and close for anything else), then AVL packets, each acknowledged with its record count only once the sink has
 * durably taken its records. Anything else (a bad CRC, a malformed or oversized packet, a sink that failed) closes
 * the connection unacknowledged, so the unit reconnects and resends what it still holds. One connection's bytes
 * never reach another's state.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { FuelSensorSetting } from '../../domain/tracking/settings.ts';
import { DEFAULT_FUEL_SENSOR } from '../../domain/tracking/settings.ts';
import { logger } from '../../logger.ts';
import type { PositionSink } from '../position-sink.ts';
import { AvlRefusal, decodeAvlData, readFrame, readImei } from './codec.ts';
import { toPositionRecord } from './records.ts';

/** What the listener needs to know of a registered device. */
interface RegisteredDevice {
  fuelSensor?: FuelSensorSetting;
}

interface TeltonikaListenerOptions {
  port: number;
  host?: string;
  sink: PositionSink;
  /** the vehicle registered with the IMEI, or undefined: the handshake's answer */
  findDevice(imei: string): Promise<RegisteredDevice | undefined>;
  /** the largest AVL data field accepted (Teltonika units send at most a few KB) */
  maxPacketBytes?: number;
  /** a connection that sends nothing for this long is closed */
  idleTimeoutMs?: number;
}

const TELTONIKA_DEFAULTS = { maxPacketBytes: 64 * 1024, idleTimeoutMs: 10 * 60_000 } as const;

/** Running totals since the listener started; the AWS service publishes them as metrics, the alarms watch three. */
export interface TeltonikaCounters {
  connections: number;
  openConnections: number;
  handshakesAccepted: number;
  handshakesRejected: number;
  packetsAcked: number;
  recordsAcked: number;
  crcFailures: number;
  malformedPackets: number;
  /** records of well-formed packets the sink did not take: never acknowledged, the unit resends them */
  recordsNotAcked: number;
  idleTimeouts: number;
}

export interface TeltonikaListener {
  port: number;
  counters: Readonly<TeltonikaCounters>;
  close(): Promise<void>;
}

export async function startTeltonikaListener(options: TeltonikaListenerOptions): Promise<TeltonikaListener> {
  const settings = { ...TELTONIKA_DEFAULTS, ...options };
  const counters: TeltonikaCounters = {
    connections: 0,
    openConnections: 0,
    handshakesAccepted: 0,
    handshakesRejected: 0,
    packetsAcked: 0,
    recordsAcked: 0,
    crcFailures: 0,
    malformedPackets: 0,
    recordsNotAcked: 0,
    idleTimeouts: 0,
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    counters.connections++;
    counters.openConnections++;
    socket.once('close', () => {
      sockets.delete(socket);
      counters.openConnections--;
    });
    serveDevice(socket, settings, counters);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
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

type Settings = TeltonikaListenerOptions & typeof TELTONIKA_DEFAULTS;

/** One device's connection: bytes are buffered and handled in order, one frame at a time. */
function serveDevice(socket: Socket, settings: Settings, counters: TeltonikaCounters): void {
  let buffered: Buffer = Buffer.alloc(0);
  let device: { imei: string; fuelSensor: FuelSensorSetting } | undefined;
  let working = false;

  socket.setNoDelay(true);
  socket.setTimeout(settings.idleTimeoutMs, () => {
    counters.idleTimeouts++;
    socket.destroy();
  });
  socket.on('error', (error) => logger.debug('teltonika connection error', { error }));

  const handshake = async (): Promise<boolean> => {
    const hello = readImei(buffered);
    if (!hello) return false;
    buffered = hello.rest;
    const found = await settings.findDevice(hello.imei);
    if (!found) {
      counters.handshakesRejected++;
      logger.warn('teltonika handshake refused: no vehicle has this IMEI', { imei: hello.imei });
      // Whatever the refused unit sends after its IMEI is not read: the connection only says 00 and closes.
      socket.removeAllListeners('data');
      socket.end(Buffer.from([0x00]), () => socket.destroy());
      return false;
    }
    counters.handshakesAccepted++;
    device = { imei: hello.imei, fuelSensor: found.fuelSensor ?? DEFAULT_FUEL_SENSOR };
    socket.write(Buffer.from([0x01]));
    return true;
  };

  /** Handles the next frame; false when more bytes are needed (or the connection is done). */
  const nextFrame = async (imei: string, fuelSensor: FuelSensorSetting): Promise<boolean> => {
    const frame = readFrame(buffered, settings.maxPacketBytes);
    if (frame.kind === 'incomplete') return false;
    buffered = frame.rest;
    if (frame.kind === 'keep-alive') return true;
    const { records } = decodeAvlData(frame.data);
    const receivedAt = new Date();
    const positions = records.map((record) => toPositionRecord(imei, record, fuelSensor, receivedAt));
    try {
      await settings.sink.put(positions);
    } catch (error) {
      counters.recordsNotAcked += positions.length;
      logger.error('teltonika records not accepted: not acknowledged, the unit resends them', { imei, records: positions.length, error });
      socket.destroy();
      return false;
    }
    const ack = Buffer.alloc(4);
    ack.writeUInt32BE(records.length);
    socket.write(ack);
    counters.packetsAcked++;
    counters.recordsAcked += records.length;
    return true;
  };

  const work = async (): Promise<void> => {
    if (working) return;
    working = true;
    // Reading waits while a packet is being stored: a unit sends its next packet only after the ack anyway.
    socket.pause();
    try {
      while (!socket.destroyed) {
        const progressed = device ? await nextFrame(device.imei, device.fuelSensor) : await handshake();
        if (!progressed) break;
      }
    } catch (error) {
      refuse(error);
    } finally {
      working = false;
      if (!socket.destroyed) socket.resume();
    }
  };

  const refuse = (error: unknown): void => {
    if (error instanceof AvlRefusal) {
      if (error.reason === 'bad crc') counters.crcFailures++;
      else counters.malformedPackets++;
      logger.warn('teltonika packet refused: not acknowledged, connection closed', { imei: device?.imei, reason: error.message });
    } else {
      logger.error('teltonika connection failed', { imei: device?.imei, error: error as Error });
    }
    socket.destroy();
  };

  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    void work();
  });
}
