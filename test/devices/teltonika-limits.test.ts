/**
 * The Teltonika listener against poison packets, guessing, floods and slow connections, over real sockets on
 * 127.0.0.1 (docs/devices.md, "Security"). Each case runs its own listener with the limits it probes made small.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxyHeaderV4 } from '../../shared/devices/tcp/proxy-protocol.ts';
import { ConnectionClosed, DeviceSocket, TeltonikaDevice } from '../../shared/devices/teltonika/client.ts';
import { CODEC_8, CODEC_8E } from '../../shared/devices/teltonika/codec.ts';
import { encodeAvlPacket, encodeImei } from '../../shared/devices/teltonika/encode.ts';
import { startTeltonikaListener, type TeltonikaListener, type TeltonikaListenerOptions } from '../../shared/devices/teltonika/listener.ts';
import { findVehicleByImei } from '../../shared/store/vehicles.ts';
import { anImei, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { archivedRecords, storedPositions } from '../support/device-builders.ts';
import { anAvlRecord, aPacketOf, io, switchableSink } from '../support/teltonika.ts';

const HOST = '127.0.0.1';
const sink = switchableSink();
const listeners: TeltonikaListener[] = [];

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function givenListener(options: Partial<TeltonikaListenerOptions> = {}): Promise<TeltonikaListener> {
  const listener = await startTeltonikaListener({ port: 0, host: HOST, sink, findDevice: findVehicleByImei, ...options });
  listeners.push(listener);
  return listener;
}

async function givenUnit(): Promise<{ user: TestUser; vehicleUid: number; imei: string }> {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  return { user, vehicleUid: vehicle.vehicleUid, imei: vehicle.imei };
}

const recordAt = (at: string, overrides = {}) => anAvlRecord({ timestampMs: Date.parse(at), ...overrides });

/** The one byte the listener answers a handshake with, or 'silent' when none comes within `ms`. */
async function handshakeAnswer(connection: DeviceSocket, imei: string, ms = 2000): Promise<string> {
  await connection.write(encodeImei(imei));
  return connection.read(1, ms).then(
    (bytes) => bytes.toString('hex'),
    (error) => {
      if (error instanceof ConnectionClosed && /no answer/.test(error.message)) return 'silent';
      if (error instanceof ConnectionClosed) return 'closed';
      throw error;
    },
  );
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('packets whose content cannot be used', () => {
  it('acknowledges a jammed unit’s record timed 2^60 ms, dead-letters and counts it, and stores the unit’s next packet', async () => {
    // Prepare
    const listener = await givenListener();
    const { user, vehicleUid, imei } = await givenUnit();
    const device = await TeltonikaDevice.connect(HOST, listener.port, imei);
    // Act
    const jammed = await device.send(encodeAvlPacket(CODEC_8, [anAvlRecord({ timestampMs: 2 ** 60 }), recordAt('2026-03-02T08:00:00Z')]));
    const next = await device.send(encodeAvlPacket(CODEC_8, [recordAt('2026-03-02T08:01:00Z')]));
    // Assess
    expect([jammed, next]).toEqual([2, 1]);
    expect(listener.counters.recordsDeadLettered).toBe(1);
    expect(await storedPositions(user, vehicleUid, '2026-03-02')).toHaveLength(2);
    expect(await archivedRecords(imei, 'dead-letter')).toEqual([
      expect.objectContaining({ reason: 'gps_datetime must be ISO 8601 with an offset' }),
    ]);
    device.close();
  });

  it('acknowledges a record at latitude 200 and keeps the packet’s other records', async () => {
    // Prepare
    const listener = await givenListener();
    const { user, vehicleUid, imei } = await givenUnit();
    const device = await TeltonikaDevice.connect(HOST, listener.port, imei);
    // Act
    const acked = await device.send(
      encodeAvlPacket(CODEC_8, [recordAt('2026-03-02T09:00:00Z', { latitude: 200 }), recordAt('2026-03-02T09:01:00Z')]),
    );
    // Assess
    expect(acked).toBe(2);
    expect(listener.counters.recordsDeadLettered).toBe(1);
    expect(await storedPositions(user, vehicleUid, '2026-03-02')).toEqual([
      expect.objectContaining({ gps_datetime: '2026-03-02 09:01:00' }),
    ]);
    device.close();
  });

  it('acknowledges a CRC-valid packet unreadable inside with the count it declares, and dead-letters it', async () => {
    // Prepare
    const listener = await givenListener();
    const { imei } = await givenUnit();
    const device = await TeltonikaDevice.connect(HOST, listener.port, imei);
    // Act
    const acked = await device.send(aPacketOf(Buffer.from([CODEC_8, 3, 0xde, 0xad, 3])));
    // Assess
    expect(acked).toBe(3);
    expect(listener.counters.recordsDeadLettered).toBe(3);
    expect(await archivedRecords(imei, 'dead-letter')).toHaveLength(1);
    device.close();
  });

  it('keeps the point of a Codec 8E record whose iButton element is 1,000 bytes, without the driver tag', async () => {
    // Prepare
    const listener = await givenListener();
    const { user, vehicleUid, imei } = await givenUnit();
    const device = await TeltonikaDevice.connect(HOST, listener.port, imei);
    // Act
    const acked = await device.send(
      encodeAvlPacket(CODEC_8E, [recordAt('2026-03-02T10:00:00Z', { io: new Map([io(78, 'ab'.repeat(1000))]) })]),
    );
    // Assess
    expect(acked).toBe(1);
    expect(await storedPositions(user, vehicleUid, '2026-03-02')).toEqual([expect.objectContaining({ driver_id: null })]);
    expect((await archivedRecords(imei)).at(-1)).toMatchObject({ dropped_readings: ['driver_tag_id'] });
    device.close();
  });

  it('still closes a packet with a bad CRC unacknowledged', async () => {
    // Prepare
    const listener = await givenListener();
    const { imei } = await givenUnit();
    const device = await TeltonikaDevice.connect(HOST, listener.port, imei);
    const packet = encodeAvlPacket(CODEC_8, [recordAt('2026-03-02T08:00:00Z')]);
    packet[20] = (packet[20] as number) ^ 0xff;
    // Act
    const answer = await device.send(packet).catch((error: Error) => error);
    // Assess
    expect(answer).toBeInstanceOf(ConnectionClosed);
    expect(listener.counters.crcFailures).toBe(1);
  });
});

describe('guessing IMEIs', () => {
  it('answers refusals at once within the source’s budget, then holds them, while a registered unit handshakes at once', async () => {
    // Prepare
    const listener = await givenListener({ refusals: { perSecond: 0.01, burst: 2 }, refusalHoldMs: 1500 });
    const { imei } = await givenUnit();
    const guesses = await Promise.all(Array.from({ length: 3 }, () => anImei()));
    // Act
    const first = await handshakeAnswer(await DeviceSocket.connect(HOST, listener.port), guesses[0] as string);
    const second = await handshakeAnswer(await DeviceSocket.connect(HOST, listener.port), guesses[1] as string);
    const heldConnection = await DeviceSocket.connect(HOST, listener.port);
    const third = await handshakeAnswer(heldConnection, guesses[2] as string, 500);
    const registered = await handshakeAnswer(await DeviceSocket.connect(HOST, listener.port), imei, 500);
    const thirdLater = (await heldConnection.read(1, 3000)).toString('hex');
    // Assess
    expect([first, second, third, registered, thirdLater]).toEqual(['00', '00', 'silent', '01', '00']);
    expect(listener.counters).toMatchObject({ handshakesRejected: 3, handshakesHeld: 1, handshakesAccepted: 1 });
  });

  it('remembers an unknown IMEI: a repeated guess costs no lookup', async () => {
    // Prepare
    let lookups = 0;
    const listener = await givenListener({
      findDevice: (imei) => {
        lookups++;
        return findVehicleByImei(imei);
      },
    });
    const guess = await anImei();
    // Act
    const answers = [];
    for (let n = 0; n < 3; n++) answers.push(await handshakeAnswer(await DeviceSocket.connect(HOST, listener.port), guess));
    // Assess
    expect(answers).toEqual(['00', '00', '00']);
    expect(lookups).toBe(1);
  });

  it('closes a connection at once when its source has its cap of handshakes in progress', async () => {
    // Prepare
    const listener = await givenListener({ maxPendingHandshakesPerSource: 2 });
    const silent = await Promise.all([DeviceSocket.connect(HOST, listener.port), DeviceSocket.connect(HOST, listener.port)]);
    // Act
    const third = await DeviceSocket.connect(HOST, listener.port);
    await third.closed;
    // Assess
    expect(listener.counters.connectionsRefused).toBe(1);
    for (const connection of silent) connection.close();
  });
});

describe('connections', () => {
  it('keeps one live connection per IMEI: a new handshake closes the older connection', async () => {
    // Prepare
    const listener = await givenListener();
    const { imei } = await givenUnit();
    const older = await TeltonikaDevice.connect(HOST, listener.port, imei);
    // Act
    const newer = await TeltonikaDevice.connect(HOST, listener.port, imei);
    await older.connection.closed;
    const acked = await newer.send(encodeAvlPacket(CODEC_8, [recordAt('2026-03-02T11:00:00Z')]));
    // Assess
    expect(acked).toBe(1);
    expect(listener.counters.connectionsReplaced).toBe(1);
    newer.close();
  });

  it('acknowledges a backlog of small packets one after another without waiting between them', async () => {
    // Prepare: a unit back from a dead zone sends its buffer, each packet after the last one's ack, to a sink that takes
    // records at once
    const listener = await givenListener({ sink: { put: async () => undefined } });
    const { imei } = await givenUnit();
    const unit = await TeltonikaDevice.connect(HOST, listener.port, imei);
    const backlog = Array.from({ length: 30 }, (_, n) =>
      encodeAvlPacket(CODEC_8, [recordAt(`2026-03-03T08:${String(n).padStart(2, '0')}:00Z`)]),
    );
    // Act: timers stand still, so a read that waited on one between packets would never be acknowledged
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const acked = [];
    try {
      for (const packet of backlog) acked.push(await unit.send(packet));
    } finally {
      vi.useRealTimers();
    }
    // Assess: a read that finishes a packet reads on at once; only an unfinished one waits for more bytes
    expect(acked).toEqual(backlog.map(() => 1));
    unit.close();
  });

  it('closes a connection that sends no IMEI within the handshake deadline', async () => {
    // Prepare
    const listener = await givenListener({ handshakeTimeoutMs: 200 });
    const connection = await DeviceSocket.connect(HOST, listener.port);
    // Act
    await connection.write(Buffer.from([0x00]));
    await connection.closed;
    // Assess
    expect(listener.counters.handshakeTimeouts).toBe(1);
  });

  it('closes a packet trickled a byte at a time past the packet deadline, unacknowledged', async () => {
    // Prepare
    const listener = await givenListener({ packetTimeoutMs: 300, idleTimeoutMs: 60_000 });
    const { imei } = await givenUnit();
    const device = await TeltonikaDevice.connect(HOST, listener.port, imei);
    const packet = encodeAvlPacket(CODEC_8, [recordAt('2026-03-02T08:00:00Z')]);
    // Act
    let sent = 0;
    while (!listener.counters.packetTimeouts && sent < packet.length - 1) {
      await device.connection.write(packet.subarray(sent, ++sent)).catch(() => undefined);
      await wait(30);
    }
    await device.connection.closed;
    // Assess
    expect(sent).toBeLessThan(packet.length - 1);
    expect(listener.counters).toMatchObject({ packetTimeouts: 1, packetsAcked: 0 });
  });

  it('closes a connection past the idle timeout even while it trickles keep-alive bytes', async () => {
    // Prepare
    const listener = await givenListener({ idleTimeoutMs: 300 });
    const { imei } = await givenUnit();
    const device = await TeltonikaDevice.connect(HOST, listener.port, imei);
    // Act: a byte every 50 ms for up to 3 s, ten times the timeout, which each byte would renew if bytes counted as activity
    for (let sent = 0; !listener.counters.idleTimeouts && sent < 60; sent++) {
      await device.connection.write(Buffer.from([0xff])).catch(() => undefined);
      await wait(50);
    }
    await device.connection.closed;
    // Assess
    expect(listener.counters.idleTimeouts).toBe(1);
  });

  it('closes connections over the cap per source address at once, and over the cap per task', async () => {
    // Prepare
    const perSource = await givenListener({ maxConnectionsPerSource: 2 });
    const perTask = await givenListener({ maxConnections: 2 });
    const held = await Promise.all([perSource, perSource, perTask, perTask].map((listener) => DeviceSocket.connect(HOST, listener.port)));
    // Act
    const overSource = await DeviceSocket.connect(HOST, perSource.port);
    const overTask = await DeviceSocket.connect(HOST, perTask.port);
    await Promise.all([overSource.closed, overTask.closed]);
    // Assess
    expect(perSource.counters.connectionsRefused).toBe(1);
    expect(perTask.counters.connectionsRefused).toBe(1);
    for (const connection of held) connection.close();
  });
});

describe('a source at its cap of connections', () => {
  it('stays at its cap after a refusal: the refused connection frees no place', async () => {
    // Prepare: connections the listener does not close before the end of the case unless they are refused
    const listener = await givenListener({ maxConnectionsPerSource: 1, handshakeTimeoutMs: 5000 });
    const held = await DeviceSocket.connect(HOST, listener.port);
    const refused = await DeviceSocket.connect(HOST, listener.port);
    await refused.closed;
    // Act
    const again = await DeviceSocket.connect(HOST, listener.port);
    await again.closed;
    // Assess
    expect(listener.counters).toMatchObject({ connectionsRefused: 2, handshakeTimeouts: 0 });
    held.close();
  });
});

describe('behind the load balancer (PROXY protocol v2)', () => {
  it('counts caps and refusals by the address the header names, not the balancer’s', async () => {
    // Prepare
    const listener = await givenListener({ proxyProtocol: true, maxConnectionsPerSource: 1 });
    const { imei } = await givenUnit();
    const fromA = await DeviceSocket.connect(HOST, listener.port);
    await fromA.write(proxyHeaderV4('203.0.113.7', 40_001));
    // Act
    const fromB = await DeviceSocket.connect(HOST, listener.port);
    await fromB.write(proxyHeaderV4('198.51.100.9', 40_002));
    const answerB = await handshakeAnswer(fromB, imei);
    const againA = await DeviceSocket.connect(HOST, listener.port);
    await againA.write(proxyHeaderV4('203.0.113.7', 40_003));
    await againA.closed;
    // Assess
    expect(answerB).toBe('01');
    expect(listener.counters.connectionsRefused).toBe(1);
    fromA.close();
    fromB.close();
  });

  it('closes a connection that does not start with the header, as a framing error', async () => {
    // Prepare
    const listener = await givenListener({ proxyProtocol: true });
    const { imei } = await givenUnit();
    const connection = await DeviceSocket.connect(HOST, listener.port);
    // Act
    const answer = await handshakeAnswer(connection, imei);
    // Assess
    expect(answer).toBe('closed');
    expect(listener.counters.malformedPackets).toBe(1);
  });
});
