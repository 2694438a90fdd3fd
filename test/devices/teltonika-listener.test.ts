import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConnectionClosed, DeviceSocket, TeltonikaDevice } from '../../shared/devices/teltonika/client.ts';
import { CODEC_8, CODEC_8E } from '../../shared/devices/teltonika/codec.ts';
import { encodeAvlPacket, encodeImei } from '../../shared/devices/teltonika/encode.ts';
import { startTeltonikaListener, type TeltonikaListener } from '../../shared/devices/teltonika/listener.ts';
import { findVehicleByImei, setFuelSensor } from '../../shared/store/vehicles.ts';
import { createApi } from '../support/api.ts';
import { anImei, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { anAvlRecord, io, switchableSink, traccarVectors } from '../support/teltonika.ts';

const api = createApi(() => inject('apiUrl'));
const HOST = '127.0.0.1';
const sink = switchableSink();
let listener: TeltonikaListener;

beforeAll(async () => {
  listener = await startTeltonikaListener({ port: 0, host: HOST, sink, findDevice: findVehicleByImei });
});
afterAll(() => listener.close());

/** A user with a vehicle whose unit reports over Teltonika. */
async function givenUnit(): Promise<{ user: TestUser; vehicleUid: number; imei: string }> {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  return { user, vehicleUid: vehicle.vehicleUid, imei: vehicle.imei };
}

const connect = (imei: string) => TeltonikaDevice.connect(HOST, listener.port, imei, 5000);

/** Records a minute apart from `start`, the unit moving east. */
const recordsFrom = (start: string, count: number, overrides = {}) =>
  Array.from({ length: count }, (_, index) =>
    anAvlRecord({ timestampMs: Date.parse(start) + index * 60_000, longitude: 28.1 + index * 0.001, ...overrides }),
  );

async function storedPositions(user: TestUser, vehicleUid: number): Promise<Array<Record<string, unknown>>> {
  const res = await api.get('getPositions', {
    api_key: user.key,
    vehicle_uid: vehicleUid,
    start_datetime: '2026-03-01 00:00:00',
    end_datetime: '2026-03-07 00:00:00',
  });
  expect(res).toBeSuccess();
  return res.body.positions;
}

describe('the IMEI handshake', () => {
  it('answers 01 to the IMEI of a registered vehicle', async () => {
    // Prepare
    const { imei } = await givenUnit();
    const connection = await DeviceSocket.connect(HOST, listener.port);
    // Act
    await connection.write(encodeImei(imei));
    // Assess
    expect((await connection.read(1, 5000)).toString('hex')).toBe('01');
    connection.close();
  });

  it('answers 00 and closes for an IMEI no vehicle has, counting the refusal', async () => {
    // Prepare
    const before = listener.counters.handshakesRejected;
    const connection = await DeviceSocket.connect(HOST, listener.port);
    // Act
    await connection.write(encodeImei(await anImei()));
    // Assess
    expect((await connection.read(1, 5000)).toString('hex')).toBe('00');
    await connection.closed;
    expect(listener.counters.handshakesRejected).toBe(before + 1);
  });
});

describe('AVL packets', () => {
  it("acknowledges Traccar's Codec 8 packet with its record count once stored", async () => {
    // Prepare
    const { user, vehicleUid, imei } = await givenUnit();
    const device = await connect(imei);
    // Act
    const acked = await device.send(Buffer.from(traccarVectors.codec8ThreeRecords, 'hex'));
    // Assess
    expect(acked).toBe(3);
    const res = await api.get('getLiveData', { api_key: user.key });
    expect(res.body.vehicles[0]).toMatchObject({ vehicle_uid: String(vehicleUid), gps_datetime: '2022-03-28 04:53:34' });
    device.close();
  });

  it('stores a Codec 8 Extended packet with its IO elements mapped', async () => {
    // Prepare
    const { user, vehicleUid, imei } = await givenUnit();
    const device = await connect(imei);
    const records = recordsFrom('2026-03-02T08:00:00Z', 2, { io: new Map([io(239, '01'), io(16, '000186a0'), io(66, '3390')]) });
    // Act
    const acked = await device.send(encodeAvlPacket(CODEC_8E, records));
    // Assess
    expect(acked).toBe(2);
    const positions = await storedPositions(user, vehicleUid);
    expect(positions).toHaveLength(2);
    expect(positions[1]).toMatchObject({ speed: 42, heading: 90, ignition: 1, odometer: 100 });
    device.close();
  });

  it("reads fuel from the IO element the vehicle's setting names", async () => {
    // Prepare
    const { user, vehicleUid, imei } = await givenUnit();
    await setFuelSensor(vehicleUid, { ioId: 84, scale: 0.1 });
    const device = await connect(imei);
    // Act
    await device.send(encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T08:00:00Z', 1, { io: new Map([io(84, '04d2'), io(201, '0064')]) })));
    // Assess
    const res = await api.get('getLiveData', { api_key: user.key });
    expect(res.body.vehicles[0].fuel_value).toBe('123.4');
    device.close();
  });

  it('takes a packet split across many TCP reads, and two packets in one read', async () => {
    // Prepare
    const { user, vehicleUid, imei } = await givenUnit();
    const device = await connect(imei);
    const first = encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T08:00:00Z', 1));
    const second = encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T08:05:00Z', 2));
    const third = encodeAvlPacket(CODEC_8E, recordsFrom('2026-03-02T08:10:00Z', 1));
    // Act
    for (const byte of first) {
      await device.connection.write(Buffer.from([byte]));
    }
    const firstAck = await device.connection.read(4, 5000);
    await device.connection.write(Buffer.concat([second, third]));
    const bothAcks = await device.connection.read(8, 5000);
    // Assess
    expect(firstAck.readUInt32BE(0)).toBe(1);
    expect([bothAcks.readUInt32BE(0), bothAcks.readUInt32BE(4)]).toEqual([2, 1]);
    expect(await storedPositions(user, vehicleUid)).toHaveLength(4);
    device.close();
  });

  it('ignores keep-alive bytes between packets', async () => {
    // Prepare
    const { imei } = await givenUnit();
    const device = await connect(imei);
    // Act
    await device.connection.write(Buffer.from([0xff, 0xff]));
    const acked = await device.send(encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T09:00:00Z', 1)));
    // Assess
    expect(acked).toBe(1);
    device.close();
  });

  it('does not acknowledge a packet with a flipped byte, closes the connection and stores nothing of it', async () => {
    // Prepare
    const { user, vehicleUid, imei } = await givenUnit();
    const before = listener.counters.crcFailures;
    const device = await connect(imei);
    const packet = encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T08:00:00Z', 3));
    packet.fill((packet[30] as number) ^ 0x10, 30, 31);
    // Act
    const answer = device.send(packet);
    // Assess
    await expect(answer).rejects.toThrow(ConnectionClosed);
    expect(listener.counters.crcFailures).toBe(before + 1);
    expect(await storedPositions(user, vehicleUid)).toEqual([]);
  });

  it('acknowledges a resent packet again and stores its records once', async () => {
    // Prepare
    const { user, vehicleUid, imei } = await givenUnit();
    const packet = encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T08:00:00Z', 3));
    const device = await connect(imei);
    await device.send(packet);
    device.close();
    // Act: the unit missed the ack, reconnects and sends the same packet
    const again = await connect(imei);
    const acked = await again.send(packet);
    // Assess
    expect(acked).toBe(3);
    expect(await storedPositions(user, vehicleUid)).toHaveLength(3);
    again.close();
  });

  it('closes a connection that declares a packet over the size limit, without buffering it', async () => {
    // Prepare
    const { imei } = await givenUnit();
    const device = await connect(imei);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(10 * 1024 * 1024, 4);
    // Act
    await device.connection.write(header);
    // Assess
    await device.connection.closed;
  });
});

describe('when the stream does not take the records', () => {
  it('sends no ack, and acknowledges and stores the packet the unit sends again', async () => {
    // Prepare
    const { user, vehicleUid, imei } = await givenUnit();
    const packet = encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T08:00:00Z', 2));
    const notAckedBefore = listener.counters.recordsNotAcked;
    sink.failing = true;
    const device = await connect(imei);
    // Act
    const refused = device.send(packet).catch((error) => error);
    const error = await refused;
    sink.failing = false;
    const again = await connect(imei);
    const acked = await again.send(packet);
    // Assess
    expect(error).toBeInstanceOf(ConnectionClosed);
    expect(listener.counters.recordsNotAcked).toBe(notAckedBefore + 2);
    expect(acked).toBe(2);
    expect(await storedPositions(user, vehicleUid)).toHaveLength(2);
    again.close();
  });
});

describe('connections', () => {
  it('keeps serving a device while another connection sends garbage', async () => {
    // Prepare
    const { user, vehicleUid, imei } = await givenUnit();
    const device = await connect(imei);
    const garbage = await DeviceSocket.connect(HOST, listener.port);
    // Act
    await garbage.write(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    const acked = await device.send(encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T08:00:00Z', 1)));
    // Assess
    await garbage.closed;
    expect(acked).toBe(1);
    expect(await storedPositions(user, vehicleUid)).toHaveLength(1);
    device.close();
  });

  it('closes a connection that stays silent past the idle timeout', async () => {
    // Prepare
    const quick = await startTeltonikaListener({ port: 0, host: HOST, sink, findDevice: findVehicleByImei, idleTimeoutMs: 200 });
    const { imei } = await givenUnit();
    const device = await TeltonikaDevice.connect(HOST, quick.port, imei);
    // Act
    await device.connection.closed;
    // Assess
    expect(quick.counters.idleTimeouts).toBe(1);
    await quick.close();
  });

  it('serves many devices on parallel connections', async () => {
    // Prepare
    const user = await givenUser();
    const vehicles = await Promise.all(Array.from({ length: 25 }, () => givenVehicle(user)));
    // Act
    const acks = await Promise.all(
      vehicles.map(async (vehicle) => {
        const device = await connect(vehicle.imei);
        const acked = await device.send(encodeAvlPacket(CODEC_8, recordsFrom('2026-03-02T08:00:00Z', 2)));
        device.close();
        return acked;
      }),
    );
    // Assess
    expect(acks).toEqual(vehicles.map(() => 2));
    const res = await api.get('getLiveData', { api_key: user.key });
    expect(res.body.vehicles.map((vehicle: { gps_datetime: string }) => vehicle.gps_datetime)).toEqual(
      vehicles.map(() => '2026-03-02 08:01:00'),
    );
  });
});
