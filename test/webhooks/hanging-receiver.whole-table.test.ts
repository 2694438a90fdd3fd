/**
 * An endpoint that accepts and never answers, with a thousand deliveries queued in front of another user's: through
 * the local stack's queues and sender as npm start runs them (no stream reader: deliveries are queued here), whose
 * poller ends an invocation at the function's timeout as Lambda does. Attempts time out after 1 s here
 * (WEBHOOK_TIMEOUT_MS) so the hanging endpoint's slots turn over within the test.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalWebhookDelivery, startWebhookDelivery } from '../../local/webhooks.ts';
import { parseQueuedDelivery, queuedDelivery } from '../../shared/domain/webhooks/delivery.ts';
import { readDeliveryAttempts } from '../../shared/store/webhook-attempts.ts';
import { givenUser, type TestUser } from '../support/builders.ts';
import { givenWebhook } from '../support/webhook-builders.ts';
import { givenReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { TEST_DELIVERY_SETTINGS } from '../support/webhooks.ts';

const BACKLOG = 1000;
const HEALTHY = 20;

let delivery: LocalWebhookDelivery;
let hanging: Receiver;
let healthy: Receiver;

beforeAll(async () => {
  Object.assign(process.env, TEST_DELIVERY_SETTINGS, { WEBHOOK_TIMEOUT_MS: '1000' });
  delivery = await startWebhookDelivery({ endpoint: inject('dynamoEndpoint'), tableName: inject('tableName'), stream: false });
  [hanging, healthy] = [await givenReceiver(() => 'handled'), await givenReceiver()];
}, 60_000);
afterAll(async () => {
  await delivery?.stop();
  await Promise.all([hanging?.close(), healthy?.close()]);
  Object.assign(process.env, TEST_DELIVERY_SETTINGS);
});

type Endpoint = { user: TestUser; webhookUid: number };

async function anEndpoint(url: string): Promise<Endpoint> {
  const user = await givenUser();
  return { user, webhookUid: (await givenWebhook(user, { url })).webhookUid };
}

/** `count` first attempts to the endpoint on the deliveries queue; answers their event ids. */
async function queueFor({ user, webhookUid }: Endpoint, count: number, tag: string): Promise<string[]> {
  const now = new Date();
  const deliveries = Array.from({ length: count }, (_, n) => {
    const eventId = `evt_${tag}_${process.pid}_${n}`;
    const event = { event_id: eventId, type: 'trip.started', timestamp: now.toISOString(), data: { vehicle_uid: 1 } };
    const routable = { event_id: eventId, type: 'trip.started', vehicle_uid: 1, event: JSON.stringify(event) };
    return { delivery: queuedDelivery(user.userUid, webhookUid, routable, now), delaySeconds: 0 };
  });
  await delivery.queues.deliveries.send(deliveries);
  return deliveries.map(({ delivery: queued }) => queued.event_id);
}

/** The event ids of every message still queued (waiting or in flight), in both queues. */
const queuedEventIds = (): string[] =>
  [...delivery.queues.deliveries.bodies(), ...delivery.queues.retries.bodies()].map((body) => parseQueuedDelivery(body)?.event_id ?? '');

describe('an endpoint that never answers, a thousand deliveries deep, beside another user', () => {
  it("takes nothing from the other user's deliveries, which all arrive exactly once, and keeps each of its own", async () => {
    // Prepare: the backlog queued first, the other user's deliveries behind it
    const hangingReceiver = await anEndpoint(hanging.url);
    const healthyReceiver = await anEndpoint(healthy.url);
    const backlog = await queueFor(hangingReceiver, BACKLOG, 'backlog');
    const expected = await queueFor(healthyReceiver, HEALTHY, 'healthy');
    // Act
    await healthy.waitFor(HEALTHY, 60_000);
    await hanging.waitFor(8, 30_000);
    await delivery.stop();
    // Assess: every healthy delivery once, none left to come again; no invocation overran its timeout
    expect(healthy.received.map((received) => received.headers['webhook-id']).sort()).toEqual([...expected].sort());
    const queued = queuedEventIds();
    expect(queued.filter((eventId) => expected.includes(eventId))).toEqual([]);
    expect(delivery.timedOutInvocations()).toBe(0);
    expect(delivery.queues.deliveries.depth().deadLetters + delivery.queues.retries.depth().deadLetters).toBe(0);
    // and each backlog delivery is in hand exactly once: one message of it queued (deferred or its next attempt), or failed for good
    const failed = (
      await readDeliveryAttempts(hangingReceiver.user.userUid, hangingReceiver.webhookUid, undefined, { take: () => true })
    ).filter((attempt) => attempt.state === 'failed');
    const inHand = [...queued.filter((eventId) => backlog.includes(eventId)), ...failed.map((attempt) => attempt.eventId)];
    expect(inHand.sort()).toEqual([...backlog].sort());
  }, 120_000);
});
