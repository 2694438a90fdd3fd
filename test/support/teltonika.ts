/** Teltonika test data: Traccar's published packets and a builder for AVL records. */
import { localPipelineSink } from '../../shared/devices/local-sink.ts';
import type { PositionSink } from '../../shared/devices/position-sink.ts';
import type { AvlRecord } from '../../shared/devices/teltonika/codec.ts';
import { crc16Ibm } from '../../shared/devices/teltonika/crc16.ts';
import type { PositionRecordInput } from '../../shared/domain/tracking/position.ts';

/** From traccar/traccar src/test/java/org/traccar/protocol/TeltonikaProtocolDecoderTest.java (CRCs checked). */
export const traccarVectors = {
  codec8OneRecord:
    '000000000000004c08010000016818d500580009c28d9f1cb3757a00be00c60f0053000f06f0011503c80001011d00fc0007423799180053cdf80dce426f430f' +
    '88190bb8560bb802f100005aa110002887e000010000ee8d',
  codec8ThreeRecords:
    '00000000000000da08030000017fcedf499600280431be0eded45d0038012d100000fa100901000200b300b4004501500415034702fa00054232a1180000cd3b' +
    '2fce281d43001f02c700000006f10000a029000000017fcedea99600280432070eded3dd00380046130009000f0801010200b300b400450150051502470205' +
    '423276180009cd3b2fce281d43001f02c700000027f10000a0290000000179d50853180027f65d3f0ed67212001500f1110061000f0801010200b300b400' +
    '4501500515034702054234f4180061cd53d1ce28c043003e02c700000147f1000000290003000052cb',
  codec8eVinAndDtcs:
    '00000000000000a38e0100000178b11c9e1000040bbbc91f03190c002100e113001300000010000600ef0100f00100150300c800004501001e070005004237' +
    'e00018000a00ce166200430f970024059f000300f10000665900c70000001e00100000a1b500000002010000115756315a5a5a32455a383630313533383801' +
    '19002950303239392c50303637352c50303637342c50303637322c50303637312c50303437312c50324241430100001ad8',
  codec8eIgnitionOff:
    '00000000000000818e0100000166e368a510000f0d8b5b20961c35008d010308000000000014000900ef0000f00100500100150400c800004501001e0000' +
    '2500002900000a00b5000800b60007004230dc0018000000430fcb0044005f001103de001200e50013001200240000000000000001010000113141314a43' +
    '3534343452373235323336370100005e99',
} as const;

/** An IO element as [id, bytes] from its hex value (its length is its size). */
export const io = (id: number, hex: string): [number, Buffer] => [id, Buffer.from(hex, 'hex')];

export function anAvlRecord(overrides: Partial<AvlRecord> = {}): AvlRecord {
  return {
    timestampMs: Date.parse('2026-03-02T08:00:00.000Z'),
    priority: 0,
    longitude: 28.1263,
    latitude: -25.9992,
    altitude: 1500,
    angle: 90,
    satellites: 9,
    speedKmh: 42,
    eventIoId: 0,
    io: new Map(),
    ...overrides,
  };
}

/** A CRC-valid AVL packet around any data field, readable inside or not. */
export function aPacketOf(data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(data.length, 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc16Ibm(data));
  return Buffer.concat([header, data, crc]);
}

/** The local pipeline sink (as `npm start` runs it), which a test can make fail to stand for a stream that is down. */
export function switchableSink(): PositionSink & { failing: boolean } {
  const pipeline = localPipelineSink({ windowMs: 20 });
  const sink = {
    failing: false,
    put: (records: readonly PositionRecordInput[]) =>
      sink.failing ? Promise.reject(new Error('the stream is unavailable')) : pipeline.put(records),
  };
  return sink;
}
