/**
 * Teltonika Codec 8 and Codec 8 Extended as a device protocol (shared/devices/tcp/protocol.ts): the IMEI hello,
 * answered 01 (registered) or 00; AVL packets framed and CRC-checked by codec.ts, a 0xFF between them a keep-alive;
 * each packet answered with its record count in 4 bytes. Records of a CRC-valid packet that cannot be used go to the
 * sink marked `unusable`, for the pipeline to dead-letter, and are counted in the count, so no content can jam a
 * unit (docs/devices.md, "Teltonika answers").
 */
import { positionOf } from '../../domain/tracking/position.ts';
import { DEFAULT_FUEL_SENSOR, type FuelSensorSetting } from '../../domain/tracking/settings.ts';
import { logger } from '../../logger.ts';
import type { ByteQueue } from '../tcp/byte-queue.ts';
import type { DeviceProtocol, DeviceSession, FrameHead, FrameOutcome, Hello, Incomplete } from '../tcp/protocol.ts';
import { AvlRefusal, decodeAvlData, readFrame, readImei } from './codec.ts';
import { toPositionRecord } from './records.ts';

/** The largest AVL data field accepted by default (Teltonika units send at most a few KB). */
export const MAX_PACKET_BYTES = 64 * 1024;
const PREAMBLE_AND_LENGTH_BYTES = 8;
const CRC_BYTES = 4;

/** What the protocol needs to know of a registered unit. */
export interface RegisteredDevice {
  fuelSensor?: FuelSensorSetting;
}

/** What the protocol counts beside the device server's counters. */
export interface TeltonikaProtocolCounters {
  /** records of CRC-valid packets that could not be used (a jammed unit's time, a packet unreadable inside): acknowledged, dead-lettered */
  recordsDeadLettered: number;
}

export class TeltonikaProtocol implements DeviceProtocol<RegisteredDevice> {
  readonly name = 'teltonika';
  readonly deviceIdName = 'IMEI';
  readonly accepted = Buffer.from([0x01]);
  readonly refused = Buffer.from([0x00]);
  private readonly maxPacketBytes: number;
  private readonly counters: TeltonikaProtocolCounters;

  constructor(maxPacketBytes: number, counters: TeltonikaProtocolCounters) {
    this.maxPacketBytes = maxPacketBytes;
    this.counters = counters;
  }

  /** The IMEI: its length in 2 bytes, then its digits. */
  readHello(queue: ByteQueue): Incomplete | Hello {
    if (queue.length < 2) return { kind: 'incomplete', needed: 2 };
    const bytes = 2 + queue.peek(2).readUInt16BE(0);
    const hello = readImei(queue.peek(bytes));
    return hello ? { kind: 'hello', bytes, deviceId: hello.imei } : { kind: 'incomplete', needed: bytes };
  }

  /** A packet is whole at its header's length plus the CRC; its header is refused as soon as it says too much. */
  readFrame(queue: ByteQueue): Incomplete | FrameHead {
    if (queue.length === 0) return { kind: 'incomplete', needed: 1 };
    const header = queue.peek(PREAMBLE_AND_LENGTH_BYTES);
    if (readFrame(header, this.maxPacketBytes).kind === 'keep-alive') return { kind: 'skip', bytes: 1 };
    if (header.length < PREAMBLE_AND_LENGTH_BYTES) return { kind: 'incomplete', needed: PREAMBLE_AND_LENGTH_BYTES + CRC_BYTES };
    const bytes = PREAMBLE_AND_LENGTH_BYTES + header.readUInt32BE(4) + CRC_BYTES;
    return queue.length < bytes ? { kind: 'incomplete', needed: bytes } : { kind: 'frame', bytes };
  }

  openSession(imei: string, device: RegisteredDevice): DeviceSession {
    return new TeltonikaSession(imei, device.fuelSensor ?? DEFAULT_FUEL_SENSOR, this.maxPacketBytes, this.counters);
  }
}

/** One unit's packets: its IMEI and fuel element name its records. */
class TeltonikaSession implements DeviceSession {
  private readonly imei: string;
  private readonly fuelSensor: FuelSensorSetting;
  private readonly maxPacketBytes: number;
  private readonly counters: TeltonikaProtocolCounters;

  constructor(imei: string, fuelSensor: FuelSensorSetting, maxPacketBytes: number, counters: TeltonikaProtocolCounters) {
    this.imei = imei;
    this.fuelSensor = fuelSensor;
    this.maxPacketBytes = maxPacketBytes;
    this.counters = counters;
  }

  /** Throws AvlRefusal on a bad CRC: the packet is not answered. */
  handleFrame(bytes: Buffer): FrameOutcome | undefined {
    const frame = readFrame(bytes, this.maxPacketBytes);
    if (frame.kind !== 'packet') return undefined;
    const { records, count } = this.usableRecords(frame.data, new Date());
    const answer = Buffer.alloc(4);
    answer.writeUInt32BE(count);
    return { records, count, answer };
  }

  /** The packet's records for the sink; those that cannot be used go too, marked so, for the pipeline to dead-letter. */
  private usableRecords(data: Buffer, receivedAt: Date): Pick<FrameOutcome, 'records' | 'count'> {
    const { imei } = this;
    let decoded: ReturnType<typeof decodeAvlData>;
    try {
      decoded = decodeAvlData(data);
    } catch (error) {
      if (!(error instanceof AvlRefusal)) throw error;
      // CRC-valid, so the unit sent it as it meant to: acknowledged with the count it declares, never resent.
      const count = data[1] ?? 0;
      this.counters.recordsDeadLettered += Math.max(1, count);
      logger.warn('teltonika packet unreadable: acknowledged and dead-lettered', { imei, reason: error.message });
      const base = { imei, protocol: 'teltonika', received_at: receivedAt.toISOString() };
      return { records: [{ ...base, unusable: error.message, avl_data: data.toString('hex') }], count };
    }
    const records = decoded.records.map((avl) => {
      const record = toPositionRecord(imei, avl, this.fuelSensor, receivedAt);
      const checked = positionOf(record);
      if (checked.ok) return checked.position;
      this.counters.recordsDeadLettered++;
      logger.warn('teltonika record unusable: acknowledged and dead-lettered', { imei, reason: checked.reason });
      return { ...record, unusable: checked.reason };
    });
    return { records, count: decoded.records.length };
  }
}
