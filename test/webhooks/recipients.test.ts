/**
 * Who gets a delivery, end to end through the table's stream, the router, the queue and the sender: exactly the users
 * whose feeds the event was appended to (docs/events.md, "Who sees an event").
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalWebhookDelivery } from '../../local/webhooks.ts';
import { linkVehicle } from '../../shared/store/vehicles.ts';
import { admin } from '../support/admin.ts';
import { aDecidedEvent, givenDecidedEvents, givenUser, givenVehicle } from '../support/builders.ts';
import { givenWebhook } from '../support/webhook-builders.ts';
import { givenReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { startTestDelivery } from '../support/webhooks.ts';

let delivery: LocalWebhookDelivery;
const receivers: Receiver[] = [];

beforeAll(async () => {
  delivery = await startTestDelivery();
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await delivery?.stop();
});

async function aReceiver(): Promise<Receiver> {
  const receiver = await givenReceiver();
  receivers.push(receiver);
  return receiver;
}

const idsOf = (receiver: Receiver) => receiver.received.map((delivery) => String(delivery.headers['webhook-id'])).sort();

describe('the recipients of a delivery', () => {
  it("are every user of a shared vehicle for a vehicle fact, the zone's user alone for a zone fact", async () => {
    // Prepare
    const [owner, partner] = [await givenUser(), await givenUser()];
    const vehicle = await givenVehicle(owner);
    await linkVehicle(partner.userUid, vehicle.vehicleUid);
    const [ownersReceiver, partnersReceiver] = [await aReceiver(), await aReceiver()];
    await givenWebhook(owner, { url: ownersReceiver.url });
    await givenWebhook(partner, { url: partnersReceiver.url });
    // Act
    const [trip, ownersZone, partnersZone] = await givenDecidedEvents(vehicle, [
      aDecidedEvent('trip.completed', '2026-11-01T06:00:00.000Z'),
      aDecidedEvent('no_go.entered', '2026-11-01T06:01:00.000Z', { audience: owner.userUid, zone: 41 }),
      aDecidedEvent('speeding.ended', '2026-11-01T06:02:00.000Z', { audience: partner.userUid, zone: 42 }),
    ]);
    await Promise.all([ownersReceiver.waitFor(2), partnersReceiver.waitFor(2)]);
    await sleep(500);
    // Assess
    expect(idsOf(ownersReceiver)).toEqual([trip?.event_id, ownersZone?.event_id].sort());
    expect(idsOf(partnersReceiver)).toEqual([trip?.event_id, partnersZone?.event_id].sort());
  });

  it('leave out the events a newly linked user takes from the vehicle: they were delivered when emitted', async () => {
    const [owner, partner] = [await givenUser(), await givenUser()];
    const vehicle = await givenVehicle(owner);
    const receiver = await aReceiver();
    await givenWebhook(partner, { url: receiver.url });
    await givenDecidedEvents(vehicle, [aDecidedEvent('trip.started', '2026-11-01T06:00:00.000Z')]);
    const linked = await admin('vehicle', 'link', '--user', String(partner.userUid), '--vehicle', String(vehicle.vehicleUid));
    const [next] = await givenDecidedEvents(vehicle, [aDecidedEvent('trip.completed', '2026-11-01T06:30:00.000Z')]);
    await receiver.waitFor(1);
    await sleep(500);
    expect(linked.json).toMatchObject({ events_copied: 1 });
    expect(idsOf(receiver)).toEqual([next?.event_id]);
  });
});
