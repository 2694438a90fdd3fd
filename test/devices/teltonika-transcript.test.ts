/**
 * The exact bytes the Teltonika listener writes, step by step, in fixed sessions over real sockets on 127.0.0.1: the
 * handshake's 01 and 00, the acks of Codec 8 and 8E packets, the silence after a partial packet, and the connection
 * closed without a byte after a CRC failure, a framing error or a sink that failed. Recorded on the listener before
 * its transport and its protocol were parted (docs/devices.md, "How it is built"); any change to a byte fails here.
 */
import { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { PositionSink } from '../../shared/devices/position-sink.ts';
import { proxyHeaderV4 } from '../../shared/devices/tcp/proxy-protocol.ts';
import { CODEC_8, CODEC_8E } from '../../shared/devices/teltonika/codec.ts';
import { encodeAvlPacket, encodeImei } from '../../shared/devices/teltonika/encode.ts';
import { startTeltonikaListener, type TeltonikaListener, type TeltonikaListenerOptions } from '../../shared/devices/teltonika/listener.ts';
import { findVehicleByImei } from '../../shared/store/vehicles.ts';
import { anImei, givenUser, givenVehicle } from '../support/builders.ts';
import { anAvlRecord, aPacketOf, switchableSink, traccarVectors } from '../support/teltonika.ts';

const HOST = '127.0.0.1';
const ANSWER_WAIT_MS = 5000;
const listeners: TeltonikaListener[] = [];

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

/** The sink of the local pipeline, which also notes what each put carried: a record's time, or `unusable`. */
function recordingSink(): PositionSink & { failing: boolean; puts: string[][] } {
  const pipeline = switchableSink();
  const sink = {
    puts: [] as string[][],
    get failing() {
      return pipeline.failing;
    },
    set failing(value: boolean) {
      pipeline.failing = value;
    },
    put: (records: Parameters<PositionSink['put']>[0]) => {
      sink.puts.push(records.map((record) => ('unusable' in record ? 'unusable' : String(record.gps_datetime))));
      return pipeline.put(records);
    },
  };
  return sink;
}

async function givenListener(options: Partial<TeltonikaListenerOptions> = {}) {
  const sink = recordingSink();
  const listener = await startTeltonikaListener({ port: 0, host: HOST, sink, findDevice: findVehicleByImei, ...options });
  listeners.push(listener);
  return { listener, sink };
}

async function aRegisteredImei(): Promise<string> {
  return (await givenVehicle(await givenUser())).imei;
}

/** What the unit sends at a step, and how many bytes it then awaits: a number, or all until the listener closes. */
type Step = [send: Buffer, answerBytes: number | 'until closed'];

/** Sends each step's bytes and reads its answer; the answers as hex, one a step (the last: all that came before the close). */
async function converse(port: number, steps: Step[]): Promise<string[]> {
  const socket = new Socket();
  let received = Buffer.alloc(0);
  let ended = false;
  let wake: () => void = () => undefined;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('error', () => undefined);
  socket.once('close', () => {
    ended = true;
    wake();
  });
  await new Promise<void>((resolve) => socket.connect(port, HOST, resolve));
  const awaitUntil = async (done: () => boolean) => {
    while (!done()) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no answer within ${ANSWER_WAIT_MS} ms, had ${received.toString('hex')}`)),
          ANSWER_WAIT_MS,
        );
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  const answers: string[] = [];
  for (const [send, answerBytes] of steps) {
    await new Promise<void>((resolve) => socket.write(send, () => resolve()));
    const count = answerBytes;
    await awaitUntil(count === 'until closed' ? () => ended : () => received.length >= count || ended);
    const answer = count === 'until closed' ? received : received.subarray(0, count);
    answers.push(answer.toString('hex'));
    received = received.subarray(answer.length);
  }
  socket.destroy();
  return answers;
}

const at = (iso: string, overrides = {}) => anAvlRecord({ timestampMs: Date.parse(iso), ...overrides });
const hex = (text: string) => Buffer.from(text, 'hex');

function flippedCrc(packet: Buffer): Buffer {
  const flipped = Buffer.from(packet);
  flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 0x01;
  return flipped;
}

describe('the bytes a registered unit gets', () => {
  it('are 01, a 4-byte record count per whole packet, nothing for keep-alives and half packets, none after a bad CRC', async () => {
    // Prepare
    const { listener, sink } = await givenListener();
    const imei = await aRegisteredImei();
    const oneRecord = hex(traccarVectors.codec8OneRecord);
    const twoPackets = Buffer.concat([
      encodeAvlPacket(CODEC_8, [at('2026-03-04T08:00:00Z'), at('2026-03-04T08:01:00Z')]),
      encodeAvlPacket(CODEC_8E, [at('2026-03-04T08:02:00Z')]),
    ]);
    // Act
    const answers = await converse(listener.port, [
      [encodeImei(imei), 1],
      [hex(traccarVectors.codec8ThreeRecords), 4],
      [hex(traccarVectors.codec8eVinAndDtcs), 4],
      [Buffer.concat([Buffer.from([0xff]), oneRecord.subarray(0, 20)]), 0],
      [oneRecord.subarray(20), 4],
      [twoPackets, 8],
      [aPacketOf(Buffer.from([CODEC_8, 3, 0xde, 0xad, 3])), 4],
      [encodeAvlPacket(CODEC_8, [anAvlRecord({ timestampMs: 2 ** 60 }), at('2026-03-04T09:00:00Z')]), 4],
      [flippedCrc(encodeAvlPacket(CODEC_8E, [at('2026-03-04T10:00:00Z')])), 'until closed'],
    ]);
    // Assess
    expect(answers).toEqual(['01', '00000003', '00000001', '', '00000001', '0000000200000001', '00000003', '00000002', '']);
    expect(sink.puts).toEqual([
      ['2022-03-28T04:53:34.230Z', '2022-03-28T04:52:53.270Z', '2021-06-04T03:19:23.160Z'],
      ['2021-04-08T10:52:26.000Z'],
      ['2019-01-04T12:27:19.000Z'],
      ['2026-03-04T08:00:00.000Z', '2026-03-04T08:01:00.000Z'],
      ['2026-03-04T08:02:00.000Z'],
      ['unusable'],
      ['unusable', '2026-03-04T09:00:00.000Z'],
    ]);
    expect(listener.counters).toMatchObject({
      handshakesAccepted: 1,
      packetsAcked: 7,
      recordsAcked: 13,
      recordsDeadLettered: 4,
      crcFailures: 1,
      malformedPackets: 0,
    });
  });

  it('are 01 and then nothing when the sink does not take a packet’s records', async () => {
    // Prepare
    const { listener, sink } = await givenListener();
    const imei = await aRegisteredImei();
    sink.failing = true;
    // Act
    const answers = await converse(listener.port, [
      [encodeImei(imei), 1],
      [encodeAvlPacket(CODEC_8, [at('2026-03-04T11:00:00Z'), at('2026-03-04T11:01:00Z')]), 'until closed'],
    ]);
    // Assess
    expect(answers).toEqual(['01', '']);
    expect(listener.counters).toMatchObject({ recordsNotAcked: 2, packetsAcked: 0 });
  });

  it('are 01 and then nothing for a packet that declares more than the size limit', async () => {
    // Prepare
    const { listener } = await givenListener();
    const imei = await aRegisteredImei();
    const oversized = Buffer.alloc(8);
    oversized.writeUInt32BE(10 * 1024 * 1024, 4);
    // Act
    const answers = await converse(listener.port, [
      [encodeImei(imei), 1],
      [oversized, 'until closed'],
    ]);
    // Assess
    expect(answers).toEqual(['01', '']);
    expect(listener.counters).toMatchObject({ malformedPackets: 1 });
  });
});

describe('the bytes a refused handshake gets', () => {
  it('are 00 and the close for an IMEI no vehicle has', async () => {
    // Prepare
    const { listener } = await givenListener();
    // Act
    const answers = await converse(listener.port, [[encodeImei(await anImei()), 'until closed']]);
    // Assess
    expect(answers).toEqual(['00']);
    expect(listener.counters).toMatchObject({ handshakesRejected: 1, handshakesAccepted: 0 });
  });

  it('are none for an IMEI that is not digits, or of no length', async () => {
    // Prepare
    const { listener } = await givenListener();
    // Act
    const letters = await converse(listener.port, [[encodeImei('35630704244101A'), 'until closed']]);
    const empty = await converse(listener.port, [[Buffer.from([0, 0]), 'until closed']]);
    // Assess
    expect([letters, empty]).toEqual([[''], ['']]);
    expect(listener.counters).toMatchObject({ malformedPackets: 2, handshakesRejected: 0 });
  });
});

describe('the bytes behind the load balancer (PROXY protocol v2)', () => {
  it('are those of a unit without it once the header is read, and none when the header is missing', async () => {
    // Prepare
    const { listener } = await givenListener({ proxyProtocol: true });
    const imei = await aRegisteredImei();
    // Act
    const proxied = await converse(listener.port, [
      [Buffer.concat([proxyHeaderV4('203.0.113.7', 40_001), encodeImei(imei)]), 1],
      [encodeAvlPacket(CODEC_8, [at('2026-03-04T12:00:00Z')]), 4],
      [Buffer.from([0x01, 0x02, 0x03, 0x04]), 'until closed'],
    ]);
    const missing = await converse(listener.port, [[encodeImei(imei), 'until closed']]);
    // Assess
    expect([proxied, missing]).toEqual([['01', '00000001', ''], ['']]);
    expect(listener.counters).toMatchObject({ handshakesAccepted: 1, packetsAcked: 1, malformedPackets: 2 });
  });
});
