/**
 * Delivery end to end over real receivers on 127.0.0.1: an event written to the table reaches, through the table's
 * stream, the router, the in-process queue and the sender, every endpoint that takes it, signed, retried, isolated.
 * Retries come after a second here (WEBHOOK_RETRY_SCHEDULE_S, test/support/webhooks.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalWebhookDelivery } from '../../local/webhooks.ts';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { queuedDelivery } from '../../shared/domain/webhooks/delivery.ts';
import { FAILING_WEBHOOK_REASON, GONE_RECEIVER_REASON } from '../../shared/domain/webhooks/retry-schedule.ts';
import { rotatedSecrets } from '../../shared/domain/webhooks/webhook.ts';
import { linkVehicle } from '../../shared/store/vehicles.ts';
import { readDeliveryAttempts } from '../../shared/store/webhook-attempts.ts';
import { deleteWebhook, editWebhook } from '../../shared/store/webhooks.ts';
import { newWebhookSecret } from '../../shared/webhooks/signing.ts';
import { admin } from '../support/admin.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { CLIENT, DEPOT, drive, ingest } from '../support/position-builders.ts';
import { givenWebhook, storedWebhook } from '../support/webhook-builders.ts';
import { type Answer, answerWith, givenReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { givenEvent, startTestDelivery, TEST_DELIVERY_SETTINGS } from '../support/webhooks.ts';

let delivery: LocalWebhookDelivery;
const receivers: Receiver[] = [];

beforeAll(async () => {
  delivery = await startTestDelivery();
});
afterEach(() => {
  Object.assign(process.env, TEST_DELIVERY_SETTINGS);
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await delivery?.stop();
});

async function aReceiver(answer?: Answer): Promise<Receiver> {
  const receiver = await givenReceiver(answer);
  receivers.push(receiver);
  return receiver;
}

/** Answers with `status` the first `times` deliveries, then 204. */
const failingFirst =
  (times: number, status = 500, headers: Record<string, string> = {}): Answer =>
  (_, n) =>
    n < times ? { status, headers } : { status: 204 };

const attemptsOf = (user: TestUser, webhookUid: number, eventId?: string) =>
  readDeliveryAttempts(user.userUid, webhookUid, eventId, { take: () => true });

/** Waits until the endpoint's log shows the event's delivery in `state`. */
async function untilLogged(user: TestUser, webhookUid: number, eventId: string, state: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const attempts = await attemptsOf(user, webhookUid, eventId);
    if (attempts.some((attempt) => attempt.state === state)) return attempts;
    if (Date.now() > until) throw new Error(`no ${state} attempt in ${timeoutMs} ms: ${JSON.stringify(attempts)}`);
    await sleep(200);
  }
}

describe('a delivery', () => {
  it('POSTs the event as JSON, signed so that the standardwebhooks library verifies it, with the event_id as webhook-id', async () => {
    // Prepare
    const receiver = await aReceiver();
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    // Act
    const event = await givenEvent(vehicle, 'trip.started');
    const [received] = await receiver.waitFor(1);
    // Assess
    expect(received?.method).toBe('POST');
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers['webhook-id']).toBe(event.event_id);
    expect(new StandardWebhook(webhook.secret).verify(received?.body as string, received?.headers as Record<string, string>)).toEqual(
      event,
    );
  });

  it('is logged delivered with its status and duration, and marks the endpoint successful', async () => {
    const receiver = await aReceiver(answerWith(200));
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    const event = await givenEvent(vehicle);
    const [attempt] = await untilLogged(user, webhook.webhookUid, event.event_id, 'delivered');
    expect(attempt).toMatchObject({
      attempt: 1,
      statusCode: 200,
      error: null,
      state: 'delivered',
      nextAttemptAt: null,
      eventType: 'trip.started',
    });
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(0);
    expect((await storedWebhook(user, webhook.webhookUid)).lastSuccessAt).not.toBeNull();
  });

  it('signs with both secrets while a rotation overlaps, each verifying on its own', async () => {
    const receiver = await aReceiver();
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    const newSecret = newWebhookSecret();
    await editWebhook(user.userUid, webhook.webhookUid, (current) => ({ secrets: rotatedSecrets(current.secrets, newSecret, new Date()) }));
    await givenEvent(vehicle);
    const [received] = await receiver.waitFor(1);
    const headers = received?.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [newSecret, webhook.secret])
      expect(() => new StandardWebhook(secret).verify(received?.body as string, headers)).not.toThrow();
  });

  // how soon is `npm run bench -- webhooks`'s to say (event to delivery, p50 and p99): no test bounds the wall clock
  it('reaches the receiver, signed, once the positions that decide it are committed', async () => {
    const receiver = await aReceiver();
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url, eventTypes: ['trip.started'] });
    await ingest(drive(vehicle.imei, '2026-11-12T06:00:00.000Z', 20, DEPOT, CLIENT).records);
    const [received] = await receiver.waitFor(1, 30_000);
    expect(() =>
      new StandardWebhook(webhook.secret).verify(received?.body as string, received?.headers as Record<string, string>),
    ).not.toThrow();
  });

  it('reaches the endpoint of an event decided by the admin CLI (another process) as well', async () => {
    const receiver = await aReceiver();
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenWebhook(user, { url: receiver.url, eventTypes: ['trip.started'] });
    const file = join(mkdtempSync(join(tmpdir(), 'webhook-ingest-')), 'positions.ndjson');
    writeFileSync(
      file,
      drive(vehicle.imei, '2026-11-10T06:00:00.000Z', 20, DEPOT, CLIENT)
        .records.map((r) => JSON.stringify(r))
        .join('\n'),
    );
    expect((await admin('ingest', '--file', file)).code).toBe(0);
    const [received] = await receiver.waitFor(1, 10_000);
    expect(JSON.parse(received?.body as string)).toMatchObject({ type: 'trip.started', data: { vehicle_uid: vehicle.vehicleUid } });
  });
});

describe('retries', () => {
  it('deliver an event N+1 times to a receiver failing N times, with the same webhook-id, logging each attempt', async () => {
    const receiver = await aReceiver(failingFirst(3));
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    const event = await givenEvent(vehicle);
    const received = await receiver.waitFor(4, 20_000);
    expect(received.map((r) => r.headers['webhook-id'])).toEqual(Array(4).fill(event.event_id));
    for (const r of received)
      expect(() => new StandardWebhook(webhook.secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    const attempts = await untilLogged(user, webhook.webhookUid, event.event_id, 'delivered');
    expect(attempts.map((a) => `${a.attempt} ${a.statusCode} ${a.state}`).sort()).toEqual([
      '1 500 retrying',
      '2 500 retrying',
      '3 500 retrying',
      '4 204 delivered',
    ]);
    expect(attempts.find((a) => a.attempt === 1)?.nextAttemptAt).toEqual(expect.any(String));
    expect((await storedWebhook(user, webhook.webhookUid)).failingSince).toBeNull();
  });

  it("wait what a 429's or a 503's Retry-After asks rather than the schedule", async () => {
    const receiver = await aReceiver(failingFirst(1, 503, { 'retry-after': '3' }));
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenWebhook(user, { url: receiver.url });
    await givenEvent(vehicle);
    const [first, second] = await receiver.waitFor(2, 15_000);
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(2900);
  });

  it('treat an endpoint that does not answer within the timeout as failed, and try again', async () => {
    process.env.WEBHOOK_TIMEOUT_MS = '1000';
    const receiver = await aReceiver((_, n) => (n === 0 ? 'handled' : { status: 204 }));
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    const event = await givenEvent(vehicle);
    await receiver.waitFor(2, 15_000);
    const attempts = await untilLogged(user, webhook.webhookUid, event.event_id, 'delivered');
    expect(attempts.find((a) => a.attempt === 1)).toMatchObject({ statusCode: null, error: 'timed out after 1 s', state: 'retrying' });
  });

  it('end in failed when the schedule runs out, and the endpoint is marked failing', async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE_S = '1,1';
    const receiver = await aReceiver(answerWith(500));
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    const event = await givenEvent(vehicle);
    const attempts = await untilLogged(user, webhook.webhookUid, event.event_id, 'failed');
    expect(attempts.map((a) => `${a.attempt} ${a.state}`).sort()).toEqual(['1 retrying', '2 retrying', '3 failed']);
    expect(receiver.received).toHaveLength(3);
    expect((await storedWebhook(user, webhook.webhookUid)).failingSince).not.toBeNull();
  });

  it('follow no redirect: a 3xx is the endpoint failing', async () => {
    const elsewhere = await aReceiver();
    const receiver = await aReceiver(answerWith(302, { location: elsewhere.url }));
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    const event = await givenEvent(vehicle);
    await receiver.waitFor(2, 15_000);
    const attempts = await attemptsOf(user, webhook.webhookUid, event.event_id);
    expect(attempts.find((a) => a.attempt === 1)).toMatchObject({ statusCode: 302, state: 'retrying' });
    expect(elsewhere.received).toHaveLength(0);
    await deleteWebhook(user.userUid, webhook.webhookUid);
  });
});

describe('an endpoint that is gone', () => {
  it('is disabled by a 410 and gets nothing more', async () => {
    const receiver = await aReceiver(answerWith(410));
    const witness = await aReceiver();
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    await givenWebhook(user, { url: witness.url });
    const first = await givenEvent(vehicle);
    const [attempt] = await untilLogged(user, webhook.webhookUid, first.event_id, 'failed');
    expect(attempt).toMatchObject({ statusCode: 410, state: 'failed', nextAttemptAt: null });
    expect(await storedWebhook(user, webhook.webhookUid)).toMatchObject({ enabled: false, disabledReason: GONE_RECEIVER_REASON });
    await givenEvent(vehicle);
    await witness.waitFor(2);
    await sleep(1500);
    expect(receiver.received).toHaveLength(1);
  });

  it('gets no queued retry once disabled, nor once deleted', async () => {
    const disabledReceiver = await aReceiver(answerWith(500));
    const deletedReceiver = await aReceiver(answerWith(500));
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const disabled = await givenWebhook(user, { url: disabledReceiver.url });
    const deleted = await givenWebhook(user, { url: deletedReceiver.url });
    await givenEvent(vehicle);
    await Promise.all([disabledReceiver.waitFor(1), deletedReceiver.waitFor(1)]);
    await editWebhook(user.userUid, disabled.webhookUid, () => ({ enabled: false }));
    await deleteWebhook(user.userUid, deleted.webhookUid);
    await sleep(3500);
    expect(disabledReceiver.received).toHaveLength(1);
    expect(deletedReceiver.received).toHaveLength(1);
  });

  it('is disabled after five days without a success', async () => {
    const receiver = await aReceiver(answerWith(500));
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    const sixDaysAgo = new Date(Date.now() - 6 * 86_400_000).toISOString();
    await editWebhook(user.userUid, webhook.webhookUid, () => ({ failingSince: sixDaysAgo }));
    const event = await givenEvent(vehicle);
    await untilLogged(user, webhook.webhookUid, event.event_id, 'failed');
    expect(await storedWebhook(user, webhook.webhookUid)).toMatchObject({ enabled: false, disabledReason: FAILING_WEBHOOK_REASON });
    expect(receiver.received).toHaveLength(1);
  });
});

describe('routing', () => {
  it('honours the type and vehicle filters', async () => {
    const all = await aReceiver();
    const fills = await aReceiver();
    const secondVehicle = await aReceiver();
    const user = await givenUser();
    const [v1, v2] = [await givenVehicle(user), await givenVehicle(user)];
    await givenWebhook(user, { url: all.url });
    await givenWebhook(user, { url: fills.url, eventTypes: ['fuel.filled'] });
    await givenWebhook(user, { url: secondVehicle.url, vehicleUids: [v2.vehicleUid] });
    const trip1 = await givenEvent(v1, 'trip.started');
    const fill1 = await givenEvent(v1, 'fuel.filled');
    const trip2 = await givenEvent(v2, 'trip.started');
    await all.waitFor(3);
    await sleep(1000);
    const ids = (receiver: Receiver) => receiver.received.map((r) => r.headers['webhook-id']).sort();
    expect(ids(all)).toEqual([trip1.event_id, fill1.event_id, trip2.event_id].sort());
    expect(ids(fills)).toEqual([fill1.event_id]);
    expect(ids(secondVehicle)).toEqual([trip2.event_id]);
  });

  it("sends a user's events to that user's endpoints only, and a shared vehicle's to each of its users", async () => {
    const [receiverA, receiverB] = [await aReceiver(), await aReceiver()];
    const [userA, userB] = [await givenUser(), await givenUser()];
    const [vehicleA, vehicleB, shared] = [await givenVehicle(userA), await givenVehicle(userB), await givenVehicle(userA)];
    await linkVehicle(userB.userUid, shared.vehicleUid);
    await givenWebhook(userA, { url: receiverA.url });
    await givenWebhook(userB, { url: receiverB.url });
    const [a, b, s] = [await givenEvent(vehicleA), await givenEvent(vehicleB), await givenEvent(shared)];
    await Promise.all([receiverA.waitFor(2), receiverB.waitFor(2)]);
    await sleep(1000);
    expect(receiverA.received.map((r) => r.headers['webhook-id']).sort()).toEqual([a.event_id, s.event_id].sort());
    expect(receiverB.received.map((r) => r.headers['webhook-id']).sort()).toEqual([b.event_id, s.event_id].sort());
  });
});

describe('isolation', () => {
  it('delivers a burst to a fast endpoint without waiting for a slow one beside it, whose deliveries at once are capped', async () => {
    // Prepare: at most 2 at once per endpoint, so the slow one takes 4 rounds of 4 s for the burst
    process.env.WEBHOOK_ENDPOINT_CONCURRENCY = '2';
    const SLOW_MS = 4000;
    const BURST = 8;
    let inFlight = 0;
    let mostInFlight = 0;
    const slow = await aReceiver((_, __, res) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(204).end();
      }, SLOW_MS);
      return 'handled';
    });
    const fast = await aReceiver();
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenWebhook(user, { url: slow.url });
    await givenWebhook(user, { url: fast.url });
    // Act
    for (let i = 0; i < BURST; i++) await givenEvent(vehicle);
    await fast.waitFor(BURST, 30_000);
    const fastDoneAt = Date.now();
    const slowAnsweredByThen = slow.received.length - inFlight;
    await slow.waitFor(BURST, 60_000);
    // Assess
    expect(slowAnsweredByThen).toBeLessThan(BURST / 2);
    expect((slow.received.at(-1)?.receivedAt ?? 0) - fastDoneAt).toBeGreaterThan(SLOW_MS);
    expect(mostInFlight).toBeLessThanOrEqual(2);
  }, 120_000);

  it("delivers another user's first attempt at once behind a failing endpoint's backlog of retries, which wait apart", async () => {
    // Prepare: a failing endpoint whose retries fill every sender of their queue (each holds a slot 1 s, then 500)
    const failing = await aReceiver((_, __, res) => {
      setTimeout(() => res.writeHead(500).end(), 1000);
      return 'handled';
    });
    const healthy = await aReceiver();
    const [failingUser, healthyUser] = [await givenUser(), await givenUser()];
    const failingWebhook = await givenWebhook(failingUser, { url: failing.url });
    await givenWebhook(healthyUser, { url: healthy.url });
    const backlog = await Promise.all(Array.from({ length: 20 }, () => givenVehicle(failingUser).then((vehicle) => givenEvent(vehicle))));
    await failing.waitFor(4, 10_000);
    const retries = Array.from({ length: 300 }, (_, n) => {
      const event = backlog[n % backlog.length] as FleetEvent;
      const routable = { event_id: event.event_id, type: event.type, vehicle_uid: event.data.vehicle_uid, event: JSON.stringify(event) };
      return {
        delivery: { ...queuedDelivery(failingUser.userUid, failingWebhook.webhookUid, routable, new Date()), attempt: 2 },
        delaySeconds: 0,
      };
    });
    await delivery.queues.retries.send(retries);
    // Act
    await givenEvent(await givenVehicle(healthyUser));
    await healthy.waitFor(1, 30_000);
    // Assess: it came first, while the backlog still waited (an order, not a time: the bench measures how soon)
    expect(healthy.received).toHaveLength(1);
    expect(delivery.queues.retries.depth().queued).toBeGreaterThan(100);
  }, 60_000);
});
