/**
 * A point sent to a running stack reaches an integrator's receiver as a signed event (docs/webhooks.md, "Locally";
 * how soon is `npm run bench -- webhooks`'s to say, never a test's): a stack of its own in a child process, as npm
 * start runs it (the API, the device entry points and the pipeline they feed, the table's stream, the router, the
 * queue and the sender), on a table of its own, so its stream carries only this file's events.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../local/table.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { createDevices, givenDeviceToken } from '../support/device-builders.ts';
import { type IsolatedEmulator, startIsolatedEmulator } from '../support/isolated-emulator.ts';
import { DEPOT, givenUserLocation } from '../support/user-locations-builders.ts';
import { givenReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { TEST_DELIVERY_SETTINGS } from '../support/webhooks.ts';

const table = 'fleet-tracking-running-stack-test';
let stack: IsolatedEmulator;
let receiver: Receiver;

beforeAll(async () => {
  await ensureTable(inject('dynamoEndpoint'), table);
  process.env.TABLE_NAME = table;
  stack = await startIsolatedEmulator({ ...TEST_DELIVERY_SETTINGS, TABLE_NAME: table, EMULATOR_WEBHOOKS: '1' });
  receiver = await givenReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe('a point sent to a running stack', () => {
  it('reaches the receiver as a signed geofence.entered once the device is answered', async () => {
    // Prepare: a vehicle 1.5 km north of its depot zone a minute ago, and a webhook for zone entries
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const zone = await givenUserLocation(user, { radius: 0.3 });
    const token = await givenDeviceToken(user);
    const added = await stack.api.post('addWebhook', { api_key: user.key, url: receiver.url, event_types: 'geofence.entered' });
    const devices = createDevices(() => stack.url);
    const now = Math.floor(Date.now() / 1000);
    const outside = await devices.osmand(token, {
      query: { id: vehicle.imei, timestamp: now - 90, lat: DEPOT.lat + 0.0135, lon: DEPOT.lng },
    });
    // Act
    const inside = await devices.osmand(token, { query: { id: vehicle.imei, timestamp: now - 30, lat: DEPOT.lat, lon: DEPOT.lng } });
    const [received] = await receiver.waitFor(1, 45_000);
    // Assess
    expect([added.status, outside.status, inside.status]).toEqual([200, 200, 200]);
    const event = new StandardWebhook(added.body.secret).verify(received?.body as string, received?.headers as Record<string, string>);
    expect(event).toMatchObject({
      type: 'geofence.entered',
      data: { vehicle_uid: vehicle.vehicleUid, user_location_uid: zone.userLocationUid },
    });
  }, 60_000);
});
