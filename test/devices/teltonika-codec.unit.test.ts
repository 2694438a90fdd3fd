import { describe, expect, it } from 'vitest';
import { type AvlRefusal, CODEC_8, CODEC_8E, decodeAvlData, readFrame, readImei } from '../../shared/devices/teltonika/codec.ts';
import { crc16Ibm } from '../../shared/devices/teltonika/crc16.ts';
import { encodeAvlPacket, encodeImei } from '../../shared/devices/teltonika/encode.ts';
import { toPositionRecord } from '../../shared/devices/teltonika/records.ts';
import { DEFAULT_FUEL_SENSOR } from '../../shared/domain/tracking/settings.ts';
import { anAvlRecord, io, traccarVectors } from '../support/teltonika.ts';

const MAX = 64 * 1024;

/** The data field of a whole packet given as hex, through the frame reader (which checks preamble, length and CRC). */
function dataOf(hex: string): Buffer {
  const frame = readFrame(Buffer.from(hex, 'hex'), MAX);
  if (frame.kind !== 'packet') throw new Error(`not a packet: ${frame.kind}`);
  return frame.data;
}

const ioHex = (io: Map<number, Buffer>) => Object.fromEntries([...io].map(([id, value]) => [id, value.toString('hex')]));

describe("Traccar's published Codec 8 vectors (TeltonikaProtocolDecoderTest)", () => {
  it('decodes the one-record packet field for field', () => {
    // Act
    const packet = decodeAvlData(dataOf(traccarVectors.codec8OneRecord));
    // Assess
    expect(packet.codec).toBe(CODEC_8);
    expect(packet.records).toHaveLength(1);
    const [record] = packet.records;
    expect({ ...record, io: ioHex(record?.io ?? new Map()) }).toEqual({
      timestampMs: Date.parse('2019-01-04T12:27:19.000Z'),
      priority: 0,
      longitude: 16.3745183,
      latitude: 48.1523066,
      altitude: 190,
      angle: 198,
      satellites: 15,
      speedKmh: 83,
      eventIoId: 0,
      io: {
        240: '01',
        21: '03',
        200: '00',
        1: '01',
        29: '00',
        252: '00',
        66: '3799',
        24: '0053',
        205: 'f80d',
        206: '426f',
        67: '0f88',
        25: '0bb8',
        86: '0bb8',
        241: '00005aa1',
        16: '002887e0',
      },
    });
  });

  it('maps that record to the normalized record with its units converted', () => {
    // Prepare
    const [record] = decodeAvlData(dataOf(traccarVectors.codec8OneRecord)).records;
    const receivedAt = new Date('2019-01-04T12:27:30.000Z');
    // Act
    const position = toPositionRecord('356307042441013', record as never, DEFAULT_FUEL_SENSOR, receivedAt);
    // Assess
    expect(position).toEqual({
      imei: '356307042441013',
      gps_datetime: '2019-01-04T12:27:19.000Z',
      latitude: 48.1523066,
      longitude: 16.3745183,
      speed: 83,
      heading: 198,
      ignition: null,
      odometer_km: 2656.224,
      supp_volt: 14.233,
      int_batt_volt: 3.976,
      ext_temp: null,
      driver_tag_id: null,
      fuel_raw: null,
      valid: true,
      satellites: 15,
      protocol: 'teltonika',
      received_at: '2019-01-04T12:27:30.000Z',
    });
  });

  it('decodes the three-record packet in the order sent', () => {
    // Act
    const { records } = decodeAvlData(dataOf(traccarVectors.codec8ThreeRecords));
    // Assess
    expect(records.map((record) => [new Date(record.timestampMs).toISOString(), record.latitude, record.longitude])).toEqual([
      ['2022-03-28T04:53:34.230Z', 24.9484381, 67.1363518],
      ['2022-03-28T04:52:53.270Z', 24.9484253, 67.1363591],
      ['2021-06-04T03:19:23.160Z', 24.893493, 67.0457151],
    ]);
    expect(records.map((record) => [record.altitude, record.angle, record.satellites, record.speedKmh, record.eventIoId])).toEqual([
      [56, 301, 16, 0, 250],
      [56, 70, 19, 9, 0],
      [21, 241, 17, 97, 0],
    ]);
    expect(records.map((record) => record.io.size)).toEqual([16, 15, 15]);
    expect(ioHex(records[2]?.io ?? new Map())).toMatchObject({ 66: '34f4', 67: '003e', 199: '00000147', 241: '00000029' });
  });
});

describe("Traccar's published Codec 8 Extended vectors", () => {
  it('decodes 2-byte ids and variable-length elements (VIN and DTCs) field for field', () => {
    // Act
    const packet = decodeAvlData(dataOf(traccarVectors.codec8eVinAndDtcs));
    // Assess
    expect(packet.codec).toBe(CODEC_8E);
    const [record] = packet.records;
    expect({ ...record, io: ioHex(record?.io ?? new Map()) }).toEqual({
      timestampMs: Date.parse('2021-04-08T10:52:26.000Z'),
      priority: 0,
      longitude: 6.7877833,
      latitude: 52.0296716,
      altitude: 33,
      angle: 225,
      satellites: 19,
      speedKmh: 19,
      eventIoId: 0,
      io: {
        239: '01',
        240: '01',
        21: '03',
        200: '00',
        69: '01',
        30: '07',
        66: '37e0',
        24: '000a',
        206: '1662',
        67: '0f97',
        36: '059f',
        241: '00006659',
        199: '0000001e',
        16: '0000a1b5',
        256: Buffer.from('WV1ZZZ2EZ86015388').toString('hex'),
        281: Buffer.from('P0299,P0675,P0674,P0672,P0671,P0471,P2BAC').toString('hex'),
      },
    });
  });

  it('maps ignition, odometer and voltages of the extended record', () => {
    // Prepare
    const [record] = decodeAvlData(dataOf(traccarVectors.codec8eVinAndDtcs)).records;
    // Act
    const position = toPositionRecord('356307042441013', record as never, DEFAULT_FUEL_SENSOR, new Date());
    // Assess
    expect(position).toMatchObject({
      ignition: true,
      odometer_km: 41.397,
      supp_volt: 14.304,
      int_batt_volt: 3.991,
      speed: 19,
      heading: 225,
    });
  });

  it('decodes the second extended packet, ignition off', () => {
    // Act
    const [record] = decodeAvlData(dataOf(traccarVectors.codec8eIgnitionOff)).records;
    // Assess
    expect(record).toMatchObject({ longitude: 25.2545883, latitude: 54.6708533, altitude: 141, angle: 259, satellites: 8, speedKmh: 0 });
    expect(ioHex(record?.io ?? new Map())).toMatchObject({
      239: '00',
      181: '0008',
      182: '0007',
      67: '0fcb',
      256: Buffer.from('1A1JC5444R7252367').toString('hex'),
    });
  });
});

describe('the IO element mapping', () => {
  it('reads the iButton as hex without leading zero bytes, Dallas temperatures in °C and fuel by the setting', () => {
    // Prepare
    const record = anAvlRecord({ io: new Map([io(78, '0000000001a2b3c4'), io(72, 'fffffff6'), io(89, '2a'), io(201, '00c8')]) });
    // Act
    const byDefault = toPositionRecord('356307042441013', record, DEFAULT_FUEL_SENSOR, new Date());
    const byPercent = toPositionRecord('356307042441013', record, { ioId: 89, scale: 0.7 }, new Date());
    // Assess
    expect(byDefault).toMatchObject({ driver_tag_id: '01A2B3C4', ext_temp: -1, fuel_raw: 200 });
    expect(byPercent.fuel_raw).toBeCloseTo(29.4);
  });

  it('takes the next Dallas sensor when the first reports a fault code, and no tag for an empty reader', () => {
    // Prepare: 3000 (0x0bb8) is "not connected"
    const record = anAvlRecord({ io: new Map([io(78, '0000000000000000'), io(72, '00000bb8'), io(73, '000000eb')]) });
    // Act
    const position = toPositionRecord('356307042441013', record, DEFAULT_FUEL_SENSOR, new Date());
    // Assess
    expect(position).toMatchObject({ driver_tag_id: null, ext_temp: 23.5 });
  });

  it('marks a record without satellites an invalid fix, and a negative probe value as no fuel reading', () => {
    // Prepare
    const record = anAvlRecord({ satellites: 0, io: new Map([io(201, 'fffe')]) });
    // Act
    const position = toPositionRecord('356307042441013', record, DEFAULT_FUEL_SENSOR, new Date());
    // Assess
    expect(position).toMatchObject({ valid: false, satellites: 0, fuel_raw: null });
  });
});

describe('framing', () => {
  it('reads the IMEI handshake once all its bytes are in', () => {
    // Prepare
    const hello = encodeImei('356307042441013');
    // Act, Assess
    expect(readImei(hello.subarray(0, 9))).toBeUndefined();
    expect(readImei(hello)).toEqual({ imei: '356307042441013', rest: Buffer.alloc(0) });
    expect(hello.toString('hex')).toBe('000f333536333037303432343431303133');
  });

  it('waits for the rest of a split packet and leaves the next one in the rest', () => {
    // Prepare
    const packet = encodeAvlPacket(CODEC_8, [anAvlRecord()]);
    const two = Buffer.concat([packet, packet]);
    // Act, Assess
    expect(readFrame(packet.subarray(0, packet.length - 1), MAX)).toEqual({ kind: 'incomplete' });
    const first = readFrame(two, MAX);
    expect(first.kind === 'packet' && first.rest.equals(packet)).toBe(true);
  });

  it('round-trips both codecs through the encoder', () => {
    // Prepare
    const record = anAvlRecord({ io: new Map([io(239, '01'), io(66, '3210'), io(16, '0001e240'), io(78, '0102030405060708')]) });
    // Act
    const eight = decodeAvlData(dataOf(encodeAvlPacket(CODEC_8, [record]).toString('hex')));
    const extended = decodeAvlData(dataOf(encodeAvlPacket(CODEC_8E, [record, record]).toString('hex')));
    // Assess
    expect(eight.records).toEqual([record]);
    expect(extended.records).toEqual([record, record]);
  });

  it.each([
    ['a flipped byte', (packet: Buffer) => packet.fill((packet[20] as number) ^ 0x01, 20, 21), 'bad crc'],
    ['no preamble', (packet: Buffer) => packet.fill(1, 0, 1), 'malformed'],
    ['a length past the limit', (packet: Buffer) => packet.writeUInt32BE(MAX + 1, 4), 'too large'],
  ] as const)('refuses %s', (_, spoil, reason) => {
    // Prepare
    const packet = Buffer.from(encodeAvlPacket(CODEC_8, [anAvlRecord()]));
    spoil(packet);
    // Act, Assess
    expect(() => readFrame(packet, MAX)).toThrow(expect.objectContaining({ reason }) as AvlRefusal);
  });

  it('refuses data whose two record counts differ, and another codec', () => {
    // Prepare
    const data = dataOf(encodeAvlPacket(CODEC_8, [anAvlRecord()]).toString('hex'));
    const counts = Buffer.from(data).fill(2, data.length - 1);
    const codec12 = Buffer.from(data).fill(0x0c, 0, 1);
    // Act, Assess
    expect(() => decodeAvlData(counts)).toThrow('record counts 1 and 2 differ');
    expect(() => decodeAvlData(codec12)).toThrow('unsupported codec');
  });

  it('computes CRC-16/IBM as the standard check value says', () => {
    expect(crc16Ibm(Buffer.from('123456789'))).toBe(0xbb3d);
  });
});
