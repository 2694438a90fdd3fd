/** Traccar's position forwarding (forward.type=json) over real HTTP: the body PositionForwarderJson posts. */
import { describe, expect, it } from 'vitest';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { archivedRecords, devices, givenDeviceToken, storedPositions } from '../support/device-builders.ts';

async function givenTraccarServer() {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  return { user, vehicle, token: await givenDeviceToken(user) };
}

/** A Teltonika unit's position as a Traccar server forwards it: Traccar's Position and Device models, serialized. */
const aForwardedPosition = (uniqueId: string, overrides: { position?: object; attributes?: object } = {}) => ({
  position: {
    id: 2201,
    attributes: {
      priority: 0,
      sat: 9,
      event: 0,
      ignition: true,
      motion: true,
      odometer: 123_456_789,
      hours: 4_444_200_000,
      fuel: 55.5,
      power: 13.6,
      battery: 4.1,
      driverUniqueId: '01ABCDEF',
      distance: 12.3,
      totalDistance: 98_765.4,
      ...overrides.attributes,
    },
    deviceId: 7,
    protocol: 'teltonika',
    serverTime: '2026-06-01T08:00:03.000+00:00',
    deviceTime: '2026-06-01T08:00:00.000+00:00',
    fixTime: '2026-06-01T08:00:00.000+00:00',
    outdated: false,
    valid: true,
    latitude: -26.2041,
    longitude: 28.0473,
    altitude: 1753,
    speed: 10,
    course: 270,
    address: null,
    accuracy: 0,
    network: null,
    geofenceIds: null,
    ...overrides.position,
  },
  device: {
    id: 7,
    attributes: {},
    groupId: 0,
    calendarId: 0,
    name: 'Truck 7',
    uniqueId,
    status: 'online',
    lastUpdate: '2026-06-01T08:00:03.000+00:00',
    positionId: 2200,
    phone: null,
    model: 'FMB920',
    contact: null,
    category: null,
    disabled: false,
    expirationTime: null,
  },
});

describe('traccarPositions', () => {
  it('takes a forwarded position with the token in the path, converting knots, metres and milliseconds', async () => {
    // Prepare
    const { user, vehicle, token } = await givenTraccarServer();
    // Act
    const res = await devices.traccar(token, aForwardedPosition(vehicle.imei));
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.accepted).toBe(1);
    expect(await storedPositions(user, vehicle.vehicleUid, '2026-06-01')).toEqual([
      expect.objectContaining({
        gps_datetime: '2026-06-01 08:00:00',
        speed: 18.52,
        heading: 270,
        ignition: 1,
        odometer: 123456.789,
        fuel_value: 55.5,
        driver_id: '01ABCDEF',
        supp_volt: 13.6,
        int_batt_volt: 4.1,
      }),
    ]);
    expect(await archivedRecords(vehicle.imei)).toEqual([
      expect.objectContaining({
        engine_hours: 1234.5,
        satellites: 9,
        valid: true,
        device_type: 'FMB920',
        protocol: 'traccar:teltonika',
        received_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      }),
    ]);
  });

  it('takes the token as forward.header sends it: Authorization: Bearer', async () => {
    // Prepare
    const { user, vehicle, token } = await givenTraccarServer();
    // Act
    const res = await devices.traccar(undefined, aForwardedPosition(vehicle.imei, { position: { valid: false } }), {
      headers: { Authorization: `Bearer ${token}` },
    });
    // Assess
    expect(res).toBeSuccess();
    expect(await storedPositions(user, vehicle.vehicleUid, '2026-06-01')).toHaveLength(1);
  });
});

describe('traccarPositions refuses', () => {
  it('a request without a token, or with one that is unknown, with 401', async () => {
    // Prepare
    const { vehicle } = await givenTraccarServer();
    const body = aForwardedPosition(vehicle.imei);
    // Act
    const [missing, unknown] = await Promise.all([
      devices.traccar(undefined, body),
      devices.traccar(undefined, body, { headers: { Authorization: 'Bearer not-a-token' } }),
    ]);
    // Assess
    expect(missing).toBeError(401, 'device token missing');
    expect(unknown).toBeError(401, 'unknown or revoked device token');
  });

  it("another user's device with 404, storing nothing", async () => {
    // Prepare
    const { token } = await givenTraccarServer();
    const other = await givenTraccarServer();
    // Act
    const res = await devices.traccar(token, aForwardedPosition(other.vehicle.imei));
    // Assess
    expect(res).toBeError(404, `imei ${other.vehicle.imei} is not a vehicle of this device token's user`);
    expect(await storedPositions(other.user, other.vehicle.vehicleUid, '2026-06-01')).toEqual([]);
  });

  it.each([
    [{ unexpected: true }, 'request body must be {"position": {...}, "device": {...}}'],
    ['position', 'request body must be {"position": {...}, "device": {...}}'],
  ])('a body that is not a forwarded position (%j) with 400', async (body, message) => {
    // Prepare
    const { token } = await givenTraccarServer();
    // Act
    const res = await devices.traccar(token, body);
    // Assess
    expect(res).toBeError(400, message);
  });

  it.each([
    [{ position: { latitude: -95 } }, 'latitude out of range'],
    [{ position: { fixTime: 'soon' } }, 'position.fixTime must be seconds or milliseconds since 1970, or an ISO 8601 time'],
  ])('a value out of range or malformed (%j) with 400, storing nothing', async (overrides, message) => {
    // Prepare
    const { user, vehicle, token } = await givenTraccarServer();
    // Act
    const res = await devices.traccar(token, aForwardedPosition(vehicle.imei, overrides));
    // Assess
    expect(res).toBeError(400, message);
    expect(await storedPositions(user, vehicle.vehicleUid, '2026-06-01')).toEqual([]);
  });

  it.each([
    [{ attributes: { odometer: 'far' } }, ['odometer_km']],
    [{ attributes: { sat: 300, fuel: 2 ** 62 } }, ['fuel_raw', 'satellites']],
    [{ attributes: { driverUniqueId: 'x'.repeat(65) } }, ['driver_tag_id']],
    [{ attributes: { driverUniqueId: { nested: true } } }, ['driver_tag_id']],
  ])('keeps the point of %j without the readings that do not fit, and names them on the record', async (overrides, dropped) => {
    // Prepare
    const { user, vehicle, token } = await givenTraccarServer();
    // Act
    const res = await devices.traccar(token, aForwardedPosition(vehicle.imei, overrides));
    // Assess
    expect(res).toBeSuccess();
    expect(await storedPositions(user, vehicle.vehicleUid, '2026-06-01')).toEqual([
      expect.objectContaining({ gps_datetime: '2026-06-01 08:00:00', speed: 18.52 }),
    ]);
    expect((await archivedRecords(vehicle.imei)).at(-1)).toMatchObject({ dropped_readings: dropped });
  });
});
