/**
 * Teltonika Codec 8 and Codec 8 Extended over TCP (docs/devices.md, "Teltonika"), pure: bytes in, records or a
 * reason out. A connection starts with the IMEI (2-byte length + ASCII digits); then each AVL packet is 4 zero
 * bytes, a 4-byte data length, the data (codec id, record count, records, the count again) and a 4-byte CRC-16/IBM
 * of the data. A single 0xFF byte between packets is a keep-alive.
 */
import { BytesRefused } from '../tcp/protocol.ts';
import { crc16Ibm } from './crc16.ts';

export const CODEC_8 = 0x08;
export const CODEC_8E = 0x8e;
const KEEP_ALIVE = 0xff;

/** One AVL record as the device sent it; IO element values are kept as their raw big-endian bytes. */
export interface AvlRecord {
  timestampMs: number;
  priority: number;
  /** degrees, from the device's signed ×10⁷ integers */
  longitude: number;
  latitude: number;
  /** metres above sea level */
  altitude: number;
  /** degrees from north */
  angle: number;
  satellites: number;
  speedKmh: number;
  /** the IO element whose change made the device record this point (0: a periodic record) */
  eventIoId: number;
  io: Map<number, Buffer>;
}

interface AvlPacket {
  codec: typeof CODEC_8 | typeof CODEC_8E;
  records: AvlRecord[];
}

/** Why bytes were refused: the device server counts each (a bad CRC as a checksum failure) and never acknowledges them. */
type RefusalReason = 'bad crc' | 'malformed' | 'too large' | 'unsupported codec';

export class AvlRefusal extends BytesRefused {
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, detail: string) {
    super(reason === 'bad crc' ? 'checksum' : 'framing', `${reason}: ${detail}`);
    this.reason = reason;
  }
}

/** The IMEI handshake at the start of `bytes`: the IMEI and the bytes after it, `undefined` while incomplete. */
export function readImei(bytes: Buffer): { imei: string; rest: Buffer } | undefined {
  if (bytes.length < 2) return undefined;
  const length = bytes.readUInt16BE(0);
  if (length < 1 || length > 20) throw new AvlRefusal('malformed', `an IMEI of ${length} bytes`);
  if (bytes.length < 2 + length) return undefined;
  const imei = bytes.subarray(2, 2 + length).toString('latin1');
  if (!/^\d+$/.test(imei)) throw new AvlRefusal('malformed', 'an IMEI that is not digits');
  return { imei, rest: bytes.subarray(2 + length) };
}

type Frame = { kind: 'incomplete' } | { kind: 'keep-alive'; rest: Buffer } | { kind: 'packet'; data: Buffer; rest: Buffer };

/**
 * The next frame at the start of `bytes`. A frame whose declared length passes `maxDataBytes` is refused as soon as
 * its header is in, so a device (or an attacker) cannot make the listener buffer more than that.
 */
export function readFrame(bytes: Buffer, maxDataBytes: number): Frame {
  if (bytes.length === 0) return { kind: 'incomplete' };
  if (bytes[0] === KEEP_ALIVE) return { kind: 'keep-alive', rest: bytes.subarray(1) };
  const preambleSeen = Math.min(bytes.length, 4);
  if (bytes.subarray(0, preambleSeen).some((byte) => byte !== 0)) throw new AvlRefusal('malformed', 'no 4-zero-byte preamble');
  if (bytes.length < 8) return { kind: 'incomplete' };
  const length = bytes.readUInt32BE(4);
  if (length > maxDataBytes) throw new AvlRefusal('too large', `${length} data bytes, at most ${maxDataBytes}`);
  if (bytes.length < 8 + length + 4) return { kind: 'incomplete' };
  const data = bytes.subarray(8, 8 + length);
  const crc = bytes.readUInt32BE(8 + length);
  if (crc !== crc16Ibm(data)) throw new AvlRefusal('bad crc', `CRC ${crc.toString(16)}, computed ${crc16Ibm(data).toString(16)}`);
  return { kind: 'packet', data, rest: bytes.subarray(8 + length + 4) };
}

/** The records of one AVL data field (codec id … second record count), CRC already checked. */
export function decodeAvlData(data: Buffer): AvlPacket {
  const reader = new Reader(data);
  const codec = reader.u8();
  if (codec !== CODEC_8 && codec !== CODEC_8E) throw new AvlRefusal('unsupported codec', `codec 0x${codec.toString(16)}`);
  const count = reader.u8();
  if (count === 0) throw new AvlRefusal('malformed', 'no records');
  const records = Array.from({ length: count }, () => readRecord(reader, codec === CODEC_8E));
  const countAgain = reader.u8();
  if (countAgain !== count) throw new AvlRefusal('malformed', `record counts ${count} and ${countAgain} differ`);
  if (!reader.done()) throw new AvlRefusal('malformed', `${reader.left()} bytes after the records`);
  return { codec, records };
}

function readRecord(reader: Reader, extended: boolean): AvlRecord {
  // Codec 8E widens IO ids and counts to 2 bytes and adds variable-length elements.
  const idOrCount = extended ? () => reader.u16() : () => reader.u8();
  const record: AvlRecord = {
    timestampMs: Number(reader.bytes(8).readBigUInt64BE()),
    priority: reader.u8(),
    longitude: reader.i32() / 1e7,
    latitude: reader.i32() / 1e7,
    altitude: reader.i16(),
    angle: reader.u16(),
    satellites: reader.u8(),
    speedKmh: reader.u16(),
    eventIoId: idOrCount(),
    io: new Map(),
  };
  idOrCount(); // the total number of IO elements, repeated by the per-size counts that follow
  for (const size of [1, 2, 4, 8]) {
    for (let count = idOrCount(); count > 0; count--) {
      const id = idOrCount();
      record.io.set(id, reader.bytes(size));
    }
  }
  if (extended) {
    for (let count = reader.u16(); count > 0; count--) {
      const id = reader.u16();
      record.io.set(id, reader.bytes(reader.u16()));
    }
  }
  return record;
}

/** Reads big-endian fields in order; running past the end is a malformed packet, not a RangeError. */
class Reader {
  private offset = 0;
  private readonly data: Buffer;
  constructor(data: Buffer) {
    this.data = data;
  }

  bytes(length: number): Buffer {
    if (this.offset + length > this.data.length) throw new AvlRefusal('malformed', 'a record runs past the end of the packet');
    const slice = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return Buffer.from(slice);
  }
  u8 = (): number => this.bytes(1).readUInt8();
  u16 = (): number => this.bytes(2).readUInt16BE();
  i16 = (): number => this.bytes(2).readInt16BE();
  i32 = (): number => this.bytes(4).readInt32BE();
  done = (): boolean => this.offset === this.data.length;
  left = (): number => this.data.length - this.offset;
}
