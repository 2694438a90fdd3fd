/**
 * Building Teltonika frames, as a device does: the protocol simulator (`npm run simulate -- --protocol teltonika`),
 * the device benchmark and the listener's tests speak to the listener through these.
 */
import { type AvlRecord, type CODEC_8, CODEC_8E } from './codec.ts';
import { crc16Ibm } from './crc16.ts';

/** The handshake: the IMEI's length in 2 bytes, then its ASCII digits. */
export function encodeImei(imei: string): Buffer {
  const digits = Buffer.from(imei, 'latin1');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(digits.length);
  return Buffer.concat([length, digits]);
}

/** One AVL packet of the records in the codec given: preamble, length, data, CRC. */
export function encodeAvlPacket(codec: typeof CODEC_8 | typeof CODEC_8E, records: readonly AvlRecord[]): Buffer {
  const extended = codec === CODEC_8E;
  const count = Buffer.from([records.length]);
  const data = Buffer.concat([Buffer.from([codec]), count, ...records.map((record) => encodeRecord(record, extended)), count]);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(data.length, 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc16Ibm(data));
  return Buffer.concat([header, data, crc]);
}

function encodeRecord(record: AvlRecord, extended: boolean): Buffer {
  const idOrCount = (value: number): Buffer => {
    const bytes = Buffer.alloc(extended ? 2 : 1);
    if (extended) bytes.writeUInt16BE(value);
    else bytes.writeUInt8(value);
    return bytes;
  };
  const gps = Buffer.alloc(24);
  gps.writeBigUInt64BE(BigInt(record.timestampMs), 0);
  gps.writeUInt8(record.priority, 8);
  gps.writeInt32BE(Math.round(record.longitude * 1e7), 9);
  gps.writeInt32BE(Math.round(record.latitude * 1e7), 13);
  gps.writeInt16BE(record.altitude, 17);
  gps.writeUInt16BE(record.angle, 19);
  gps.writeUInt8(record.satellites, 21);
  gps.writeUInt16BE(record.speedKmh, 22);
  const elements = [...record.io];
  const groups = [1, 2, 4, 8].map((size) => elements.filter(([, value]) => value.length === size));
  const variable = extended ? elements.filter(([, value]) => ![1, 2, 4, 8].includes(value.length)) : [];
  const total = groups.reduce((sum, group) => sum + group.length, variable.length);
  const parts = [gps, idOrCount(record.eventIoId), idOrCount(total)];
  for (const group of groups) parts.push(idOrCount(group.length), ...group.flatMap(([id, value]) => [idOrCount(id), value]));
  // Only Codec 8E has variable-length elements, and its ids, counts and lengths are all 2 bytes.
  if (extended)
    parts.push(idOrCount(variable.length), ...variable.flatMap(([id, value]) => [idOrCount(id), idOrCount(value.length), value]));
  return Buffer.concat(parts);
}
