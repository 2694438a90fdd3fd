/**
 * One device's connection, driven through its protocol (protocol.ts): the PROXY header when the balancer sends one,
 * the source's caps, the hello (answered `accepted` for a registered device, `refused` and the close for anything
 * else, at once while the source has refusals in its budget, else after a hold), then frames in order, each stored
 * in the sink before its answer is written. Bytes that are not the protocol, or a sink that failed, close the
 * connection unanswered (the device reconnects and resends what it still holds).
 */
import type { Socket } from 'node:net';
import { logger } from '../../logger.ts';
import type { PositionSink } from '../position-sink.ts';
import { ByteQueue } from './byte-queue.ts';
import { Deadlines } from './deadlines.ts';
import { PacedReader } from './paced-reader.ts';
import type { DeviceProtocol, DeviceSession, FrameOutcome } from './protocol.ts';
import { BytesRefused } from './protocol.ts';
import { MAX_PROXY_HEADER_BYTES, readProxyHeader } from './proxy-protocol.ts';
import type { DeviceServerCounters, DeviceServerSettings } from './server-settings.ts';
import type { SourceGuard } from './source-guard.ts';

/** What the connections of one server share. */
export interface ConnectionContext<Device> {
  settings: DeviceServerSettings;
  protocol: DeviceProtocol<Device>;
  sink: PositionSink;
  findDevice(deviceId: string): Promise<Device | undefined>;
  counters: DeviceServerCounters;
  guard: SourceGuard;
  /** the live connection of each device id */
  live: Map<string, Socket>;
}

export class DeviceConnection<Device> {
  private readonly socket: Socket;
  private readonly context: ConnectionContext<Device>;
  private readonly queue = new ByteQueue();
  private readonly reader: PacedReader;
  private readonly deadlines: Deadlines;
  /** the source address, once admitted: the socket's, or the one its PROXY header names */
  private source: string | undefined;
  /** the source counts this connection among its handshakes in progress */
  private handshaking = false;
  private device: { id: string; session: DeviceSession } | undefined;

  constructor(socket: Socket, context: ConnectionContext<Device>) {
    this.socket = socket;
    this.context = context;
    this.reader = new PacedReader(socket, this.queue, () => this.parse());
    this.deadlines = new Deadlines(socket, context.counters, context.settings);
  }

  /** Serves the socket from now on; closes it at once when its source is over its caps. */
  open(): void {
    this.socket.setNoDelay(true);
    this.socket.on('error', (error) => logger.debug(`${this.context.protocol.name} connection error`, { error }));
    this.socket.once('close', () => this.release());
    if (!this.context.settings.proxyProtocol && !this.admit(this.socket.remoteAddress ?? 'unknown')) return;
    this.reader.start();
  }

  private release(): void {
    const { guard, live } = this.context;
    this.deadlines.clear();
    if (this.source !== undefined) guard.release(this.source);
    if (this.handshaking && this.source !== undefined) guard.endHandshake(this.source);
    if (this.device && live.get(this.device.id) === this.socket) live.delete(this.device.id);
  }

  /** The source address is known: it must be under its caps of connections and of handshakes in progress. */
  private admit(address: string): boolean {
    const { guard } = this.context;
    if (!guard.admit(address)) return this.refuseConnection(address, 'the source address holds its cap of connections');
    this.source = address;
    if (!guard.beginHandshake(address)) return this.refuseConnection(address, 'the source address has its cap of handshakes in progress');
    this.handshaking = true;
    return true;
  }

  private refuseConnection(address: string, why: string): false {
    logger.warn(`${this.context.protocol.name} connection refused: ${why}`, { remote_address: address });
    this.context.counters.connectionsRefused++;
    this.socket.destroy();
    return false;
  }

  /** Takes what the queue holds one step at a time until a step needs more bytes (or the connection is done). */
  private async parse(): Promise<void> {
    try {
      let progressed = true;
      while (progressed && !this.socket.destroyed) progressed = await this.step();
    } catch (error) {
      this.refuse(error);
    }
  }

  private step(): boolean | Promise<boolean> {
    if (this.source === undefined) return this.readProxy();
    if (!this.device) return this.handshake(this.source);
    return this.nextFrame(this.device.session);
  }

  private readProxy(): boolean {
    const { queue } = this;
    const header = readProxyHeader(queue.peek(Math.min(queue.length, MAX_PROXY_HEADER_BYTES)));
    if (!header) {
      this.reader.needed = queue.length < 16 ? 16 : 16 + queue.peek(16).readUInt16BE(14);
      return false;
    }
    queue.take(header.headerBytes);
    return this.admit(header.kind === 'proxied' ? header.sourceAddress : (this.socket.remoteAddress ?? 'unknown'));
  }

  private async handshake(source: string): Promise<boolean> {
    const { protocol, guard, findDevice } = this.context;
    const hello = protocol.readHello(this.queue);
    if (hello.kind === 'incomplete') {
      this.reader.needed = hello.needed;
      return false;
    }
    this.queue.take(hello.bytes);
    const unknown = guard.isKnownUnknown(hello.deviceId);
    const found = unknown ? undefined : await findDevice(hello.deviceId);
    if (this.socket.destroyed) return false;
    if (found === undefined) {
      if (!unknown) guard.rememberUnknown(hello.deviceId);
      this.refuseHandshake(source, hello.deviceId);
      return false;
    }
    this.accept(source, hello.deviceId, found);
    return true;
  }

  /** The device's answer, and its connection the only live one of its id. */
  private accept(source: string, deviceId: string, found: Device): void {
    const { protocol, guard, counters, live } = this.context;
    this.deadlines.handshakeDone();
    guard.endHandshake(source);
    this.handshaking = false;
    counters.handshakesAccepted++;
    const older = live.get(deviceId);
    if (older && older !== this.socket) {
      counters.connectionsReplaced++;
      logger.info(`${protocol.name} connection replaced by a newer one of the same ${protocol.deviceIdName}`, {
        ...this.deviceIdField(deviceId),
        remote_address: source,
      });
      older.destroy();
    }
    live.set(deviceId, this.socket);
    this.device = { id: deviceId, session: protocol.openSession(deviceId, found) };
    this.socket.write(protocol.accepted);
    this.deadlines.answered();
  }

  /** Refused and closed, at once while the source has refusals left in its budget, else after a hold: guessing crawls. */
  private refuseHandshake(source: string, deviceId: string): void {
    const { protocol, guard, counters, settings } = this.context;
    counters.handshakesRejected++;
    const atOnce = guard.takeRefusal(source);
    if (!atOnce) counters.handshakesHeld++;
    logger.warn(`${protocol.name} handshake refused: no vehicle has this ${protocol.deviceIdName}`, {
      ...this.deviceIdField(deviceId),
      remote_address: source,
      held: !atOnce,
    });
    this.deadlines.handshakeDone();
    // Whatever the refused device sends after its hello is not read: the connection only answers and closes.
    this.reader.stop();
    const answer = () => this.socket.end(protocol.refused, () => this.socket.destroy());
    if (atOnce) answer();
    else setTimeout(answer, settings.refusalHoldMs).unref();
  }

  /** Handles the next frame; false when more bytes are needed (or the connection is done). */
  private async nextFrame(session: DeviceSession): Promise<boolean> {
    const head = this.context.protocol.readFrame(this.queue);
    if (head.kind === 'incomplete') {
      this.reader.needed = head.needed;
      if (this.queue.length > 0) this.deadlines.frameBegun();
      return false;
    }
    if (head.kind === 'skip') {
      this.queue.take(head.bytes);
      return true;
    }
    this.deadlines.frameWhole();
    const outcome = session.handleFrame(this.queue.take(head.bytes));
    return outcome === undefined || this.storeAndAnswer(outcome);
  }

  /** The answer only once the sink has the records: without it, the device keeps them and sends them again. */
  private async storeAndAnswer({ records, count, answer }: FrameOutcome): Promise<boolean> {
    const { protocol, sink, counters } = this.context;
    try {
      await sink.put(records);
    } catch (error) {
      counters.recordsNotAcked += count;
      logger.error(`${protocol.name} records not accepted: not acknowledged, the unit resends them`, {
        ...this.deviceIdField(this.device?.id),
        records: count,
        error,
      });
      this.socket.destroy();
      return false;
    }
    this.socket.write(answer);
    counters.packetsAcked++;
    counters.recordsAcked += count;
    this.deadlines.answered();
    return true;
  }

  private refuse(error: unknown): void {
    const { protocol, counters } = this.context;
    if (error instanceof BytesRefused) {
      counters[error.kind === 'checksum' ? 'crcFailures' : 'malformedPackets']++;
      logger.warn(`${protocol.name} bytes refused: not acknowledged, connection closed`, {
        ...this.deviceIdField(this.device?.id),
        remote_address: this.source ?? this.socket.remoteAddress,
        reason: error.message,
      });
    } else {
      logger.error(`${protocol.name} connection failed`, { ...this.deviceIdField(this.device?.id), error: error as Error });
    }
    this.socket.destroy();
  }

  /** The device id as its protocol names it in log lines (`imei`). */
  private deviceIdField(deviceId: string | undefined): Record<string, string | undefined> {
    return { [this.context.protocol.deviceIdName.toLowerCase()]: deviceId };
  }
}
