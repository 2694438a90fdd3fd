/**
 * redeliverEvents through real HTTP against an API emulator in this worker, whose handlers queue on this worker's
 * in-process queue, read by the sender as npm start runs it (no stream reader: a delivery here comes only from a
 * redelivery). Events are written before their endpoint exists, so another file's stream reader routes them to no one.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiEmulator, startApiEmulator } from '../../local/api-emulator.ts';
import { freePort } from '../../local/ports.ts';
import { type LocalWebhookDelivery, startWebhookDelivery } from '../../local/webhooks.ts';
import { EVENT_OR_SINCE, NOT_BOTH } from '../../shared/contracts/webhooks.ts';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import type { EventType } from '../../shared/domain/events/event-types.ts';
import { formatDateTime } from '../../shared/domain/time.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { EVENT_NOT_TAKEN, WEBHOOK_DISABLED } from '../../shared/domain/webhooks/attempt.ts';
import { commitEvents } from '../../shared/store/feed.ts';
import { createApi } from '../support/api.ts';
import { aFleetEvent, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenWebhook } from '../support/webhook-builders.ts';
import { type Answer, givenReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { TEST_DELIVERY_SETTINGS } from '../support/webhooks.ts';

let delivery: LocalWebhookDelivery;
let emulator: ApiEmulator;
const api = createApi(() => emulator.url);
const receivers: Receiver[] = [];

beforeAll(async () => {
  // one retry a second after the first attempt, so a failed delivery is final within seconds
  Object.assign(process.env, TEST_DELIVERY_SETTINGS, { WEBHOOK_RETRY_SCHEDULE_S: '1' });
  delivery = await startWebhookDelivery({ endpoint: inject('dynamoEndpoint'), tableName: inject('tableName'), stream: false });
  emulator = await startApiEmulator({ port: await freePort() });
}, 60_000);
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(async () => {
  await emulator?.close();
  await delivery?.stop();
});

const aReceiver = async (answer?: Answer): Promise<Receiver> => {
  const receiver = await givenReceiver(answer);
  receivers.push(receiver);
  return receiver;
};

let sequence = 1_000_000;
/** An event of the vehicle committed as the pipeline commits it, emitted and appended `minutesAgo` before now. */
async function anEvent(vehicle: Vehicle, type: EventType = 'trip.started', minutesAgo = 0): Promise<FleetEvent> {
  const emittedAt = new Date(Date.now() - minutesAgo * 60_000);
  const event: FleetEvent = {
    event_id: `evt_${randomBytes(16).toString('hex')}`,
    type,
    timestamp: emittedAt.toISOString(),
    data: {
      vehicle_uid: vehicle.vehicleUid,
      imei: vehicle.imei,
      vehicle_name: vehicle.name,
      occurred_at: emittedAt.toISOString().slice(0, 19).replace('T', ' '),
      sequence: ++sequence,
      late: 0,
      latitude: -26.2041,
      longitude: 28.0473,
    },
  };
  await commitEvents(event.data.vehicle_uid, [event], { clock: () => emittedAt });
  return event;
}

/** yyyy-mm-dd hh:mm:ss GMT+0, `minutesAgo` before now. */
const sinceMinutesAgo = (minutesAgo: number): string =>
  new Date(Date.now() - minutesAgo * 60_000).toISOString().slice(0, 19).replace('T', ' ');

const redeliver = (user: TestUser, params: Record<string, string | number>) =>
  api.operation('redeliverEvents', { api_key: user.key, ...params });

/** The event's attempts once one is logged: the sender logs an attempt just after the endpoint's answer, not before. */
async function loggedDeliveries(user: TestUser, webhookUid: number, eventId: string) {
  for (;;) {
    const log = await api.operation('getWebhookDeliveries', { api_key: user.key, webhook_uid: webhookUid, event_id: eventId });
    if (log.body.deliveries?.length > 0) return log;
    await sleep(50);
  }
}

const receivedIds = (receiver: Receiver): string[] => receiver.received.map((d) => String(d.headers['webhook-id']));

describe('redeliverEvents with event_id', () => {
  it('queues the event again: it arrives signed, with its event_id as webhook-id, and is logged', async () => {
    // Prepare
    const user = await givenUser();
    const event = await anEvent(await givenVehicle(user));
    const receiver = await aReceiver();
    const webhook = await givenWebhook(user, { url: receiver.url });
    // Act
    const res = await redeliver(user, { webhook_uid: webhook.webhookUid, event_id: event.event_id });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ webhook_uid: webhook.webhookUid, queued: 1, next_since: null });
    const [arrived] = await receiver.waitFor(1);
    expect(new StandardWebhook(webhook.secret).verify(arrived?.body ?? '', arrived?.headers as Record<string, string>)).toEqual(event);
    expect(arrived?.headers['webhook-id']).toBe(event.event_id);
    const log = await loggedDeliveries(user, webhook.webhookUid, event.event_id);
    expect(log.body.deliveries).toMatchObject([{ event_id: event.event_id, event_type: 'trip.started', attempt: 1, status_code: 204 }]);
  });

  it("waits on the retries queue, never in front of other users' first attempts", async () => {
    // Prepare
    const user = await givenUser();
    const event = await anEvent(await givenVehicle(user));
    const receiver = await aReceiver();
    const webhook = await givenWebhook(user, { url: receiver.url });
    const sentBefore = { deliveries: delivery.queues.deliveries.depth().sent, retries: delivery.queues.retries.depth().sent };
    // Act
    await redeliver(user, { webhook_uid: webhook.webhookUid, event_id: event.event_id });
    await receiver.waitFor(1);
    // Assess
    expect(delivery.queues.deliveries.depth().sent).toBe(sentBefore.deliveries);
    expect(delivery.queues.retries.depth().sent).toBe(sentBefore.retries + 1);
  });

  it('delivers again an event whose delivery failed, once its endpoint answers', async () => {
    // Prepare: the endpoint fails every attempt until told otherwise
    const user = await givenUser();
    const event = await anEvent(await givenVehicle(user));
    let healthy = false;
    const receiver = await aReceiver(() => ({ status: healthy ? 200 : 500 }));
    const webhook = await givenWebhook(user, { url: receiver.url });
    await redeliver(user, { webhook_uid: webhook.webhookUid, event_id: event.event_id });
    await receiver.waitFor(2, 10_000);
    await sleep(300);
    const failed = await api.operation('getWebhookDeliveries', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(failed.body.deliveries.map((d: { state: string }) => d.state)).toEqual(['failed', 'retrying']);
    // Act
    healthy = true;
    const res = await redeliver(user, { webhook_uid: webhook.webhookUid, event_id: event.event_id });
    // Assess
    expect(res.body.queued).toBe(1);
    await receiver.waitFor(3);
    expect(receivedIds(receiver)).toEqual([event.event_id, event.event_id, event.event_id]);
    await sleep(300);
    const after = await api.operation('getWebhookDeliveries', { api_key: user.key, webhook_uid: webhook.webhookUid, limit: 1 });
    expect(after.body.deliveries).toMatchObject([{ attempt: 1, status_code: 200, state: 'delivered' }]);
  });

  it('refuses an event the endpoint’s filters leave out', async () => {
    const user = await givenUser();
    const event = await anEvent(await givenVehicle(user), 'fuel.filled');
    const webhook = await givenWebhook(user, { url: (await aReceiver()).url, eventTypes: ['trip.started'] });
    expect(await redeliver(user, { webhook_uid: webhook.webhookUid, event_id: event.event_id })).toBeError(409, EVENT_NOT_TAKEN);
  });

  it("answers not found for another user's event and for an event nobody has", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await anEvent(await givenVehicle(other));
    const receiver = await aReceiver();
    const webhook = await givenWebhook(user, { url: receiver.url });
    const notLinked = 'event not found or not linked to this api key';
    expect(await redeliver(user, { webhook_uid: webhook.webhookUid, event_id: theirs.event_id })).toBeError(404, notLinked);
    expect(await redeliver(user, { webhook_uid: webhook.webhookUid, event_id: `evt_${'0'.repeat(32)}` })).toBeError(404, notLinked);
    await sleep(500);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('redeliverEvents with since', () => {
  it('queues every event the endpoint takes from since on, and nothing else', async () => {
    // Prepare: the endpoint takes trips of one vehicle
    const user = await givenUser();
    const [mine, other] = [await givenVehicle(user), await givenVehicle(user)];
    // committed in time order: since is when an event was appended to the feed
    await anEvent(mine, 'trip.started', 120);
    const wanted = [await anEvent(mine, 'trip.started', 5)];
    await anEvent(mine, 'fuel.filled', 3);
    await anEvent(other, 'trip.started', 3);
    wanted.push(await anEvent(mine, 'trip.completed', 1));
    const receiver = await aReceiver();
    const webhook = await givenWebhook(user, {
      url: receiver.url,
      eventTypes: ['trip.started', 'trip.completed'],
      vehicleUids: [mine.vehicleUid],
    });
    // Act
    const res = await redeliver(user, { webhook_uid: webhook.webhookUid, since: sinceMinutesAgo(10) });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ queued: 2, next_since: null });
    await receiver.waitFor(2);
    await sleep(500);
    expect(new Set(receivedIds(receiver))).toEqual(new Set(wanted.map((event) => event.event_id)));
    expect(receiver.received).toHaveLength(2);
  });

  it('queues nothing and answers 0 when no event is that recent', async () => {
    const user = await givenUser();
    await anEvent(await givenVehicle(user), 'trip.started', 60);
    const webhook = await givenWebhook(user, { url: (await aReceiver()).url });
    const res = await redeliver(user, { webhook_uid: webhook.webhookUid, since: sinceMinutesAgo(1) });
    expect(res.body).toMatchObject({ queued: 0, next_since: null });
  });
});

describe('redeliverEvents with a cursor', () => {
  it('moves on however many events share one second: next_cursor continues right after the last event read', async () => {
    // Prepare: 1,200 events appended within one second, in commits of 40
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const at = new Date(Date.now() - 60_000);
    const events = Array.from({ length: 1200 }, (_, n) => aFleetEvent(vehicle, n + 1, { at }));
    for (let i = 0; i < events.length; i += 40) await commitEvents(vehicle.vehicleUid, events.slice(i, i + 40), { clock: () => at });
    const receiver = await aReceiver();
    const webhook = await givenWebhook(user, { url: receiver.url });
    // Act
    const first = await redeliver(user, { webhook_uid: webhook.webhookUid, since: sinceMinutesAgo(2) });
    const second = await redeliver(user, { webhook_uid: webhook.webhookUid, cursor: String(first.body.next_cursor) });
    // Assess
    expect(first.body).toMatchObject({ queued: 1000, next_since: formatDateTime(at), next_cursor: expect.any(String) });
    expect(second.body).toMatchObject({ queued: 200, next_since: null, next_cursor: null });
    await receiver.waitFor(1200, 120_000);
    expect(new Set(receivedIds(receiver))).toEqual(new Set(events.map((event) => event.event_id)));
  }, 180_000);

  it("refuses another endpoint's, another user's and another operation's cursor", async () => {
    // Prepare: a cursor of the first endpoint, over 1,001 events appended within one second
    const [user, other] = [await givenUser(), await givenUser()];
    const vehicle = await givenVehicle(user);
    const at = new Date(Date.now() - 60_000);
    const events = Array.from({ length: 1001 }, (_, n) => aFleetEvent(vehicle, n + 1, { at }));
    for (let i = 0; i < events.length; i += 40) await commitEvents(vehicle.vehicleUid, events.slice(i, i + 40), { clock: () => at });
    const url = (await aReceiver(() => ({ status: 204 }))).url;
    const [mine, second] = [await givenWebhook(user, { url }), await givenWebhook(user, { url })];
    const theirs = await givenWebhook(other, { url });
    const cursor = String((await redeliver(user, { webhook_uid: mine.webhookUid, since: sinceMinutesAgo(2) })).body.next_cursor);
    const feedCursor: string = (await api.operation('getEvents', { api_key: user.key, limit: 1 })).body.next_cursor;
    // Act, Assess
    const invalid = 'cursor is not valid for this request (send the same filters as the call that answered it)';
    expect(await redeliver(user, { webhook_uid: second.webhookUid, cursor })).toBeError(400, invalid);
    expect(await redeliver(other, { webhook_uid: theirs.webhookUid, cursor })).toBeError(400, invalid);
    expect(await redeliver(user, { webhook_uid: mine.webhookUid, cursor: feedCursor })).toBeError(400, invalid);
    expect(await redeliver(user, { webhook_uid: mine.webhookUid, cursor })).toBeSuccess();
  }, 120_000);
});

describe('redeliverEvents refusals', () => {
  it('refuses a disabled endpoint: it gets nothing more', async () => {
    const user = await givenUser();
    const event = await anEvent(await givenVehicle(user));
    const receiver = await aReceiver();
    const webhook = await givenWebhook(user, { url: receiver.url });
    await api.operation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, enabled: 0 });
    expect(await redeliver(user, { webhook_uid: webhook.webhookUid, event_id: event.event_id })).toBeError(409, WEBHOOK_DISABLED);
    expect(await redeliver(user, { webhook_uid: webhook.webhookUid, since: sinceMinutesAgo(10) })).toBeError(409, WEBHOOK_DISABLED);
  });

  it("answers not found for another user's webhook", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await givenWebhook(other, { url: (await aReceiver()).url });
    expect(await redeliver(user, { webhook_uid: theirs.webhookUid, since: sinceMinutesAgo(10) })).toBeError(
      404,
      'webhook not found or not linked to this api key',
    );
  });

  it.each([
    [{}, EVENT_OR_SINCE],
    [{ event_id: `evt_${'a'.repeat(32)}`, since: '2026-11-01 00:00:00' }, NOT_BOTH],
    [{ since: '2026-13-01' }, 'since must be a date and time (yyyy-mm-dd hh:mm:ss)'],
    [{ event_id: 'evt_nothex' }, 'event_id must be an event_id (evt_ and 32 hex digits)'],
  ])('refuses %j with 400', async (params, message) => {
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    expect(await redeliver(user, { webhook_uid: webhook.webhookUid, ...params })).toBeError(400, message);
  });

  it('refuses a request without webhook_uid with 400', async () => {
    const user = await givenUser();
    expect(await redeliver(user, { since: '2026-11-01 00:00:00' })).toBeError(400, 'webhook_uid is required and must be an integer');
  });
});
