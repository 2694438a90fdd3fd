/**
 * A sender batch (deliverBatch) against real receivers on 127.0.0.1 and DynamoDB Local, on a clock the test moves:
 * whatever one endpoint does, every other message of the batch has its own outcome, at once, and the batch ends within
 * the invocation's time. Deliveries go through in-process queues of the test's own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDeliveryQueue, localDeliveryQueue } from '../../local/sqs-queue.ts';
import type { DeliverableEvent } from '../../shared/domain/webhooks/attempt.ts';
import { parseQueuedDelivery, queuedDelivery } from '../../shared/domain/webhooks/delivery.ts';
import { GONE_RECEIVER_REASON } from '../../shared/domain/webhooks/retry-schedule.ts';
import type { Webhook } from '../../shared/domain/webhooks/webhook.ts';
import { dynamo } from '../../shared/store/client.ts';
import { readDeliveryAttempts } from '../../shared/store/webhook-attempts.ts';
import { deliverBatch, LEFT_IN_QUEUE, type MessageResult } from '../../shared/webhooks/sender.ts';
import type { Resolve } from '../../shared/webhooks/url-check.ts';
import { givenUser, type TestUser } from '../support/builders.ts';
import { type ManualClock, manualClock } from '../support/manual-clock.ts';
import { givenWebhook, storedWebhook } from '../support/webhook-builders.ts';
import { type Answer, answerWith, givenReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { TEST_DELIVERY_SETTINGS } from '../support/webhooks.ts';

const TIMEOUT_MS = 10_000;
const INVOCATION_MS = 30_000;

let queues: Record<'deliveries' | 'retries', LocalDeliveryQueue>;
const receivers: Receiver[] = [];

beforeAll(() => {
  Object.assign(process.env, TEST_DELIVERY_SETTINGS, { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(() => {
  Object.assign(process.env, TEST_DELIVERY_SETTINGS);
});

const aQueue = (name: string) => localDeliveryQueue({ name, urlVariable: name, visibilityTimeoutS: 180, maxReceiveCount: 10 });

async function aReceiver(answer?: Answer): Promise<Receiver> {
  const receiver = await givenReceiver(answer);
  receivers.push(receiver);
  return receiver;
}

/** Accepts the request and never answers. */
const hangs: Answer = () => 'handled';

type Endpoint = { user: TestUser; webhookUid: number };

/** An endpoint of a new user at `url`. */
async function anEndpoint(url: string): Promise<Endpoint> {
  const user = await givenUser();
  const { webhookUid } = await givenWebhook(user, { url });
  return { user, webhookUid };
}

let sequence = 0;
/** `count` first attempts to the endpoint, queued on the deliveries queue. */
async function queueFor({ user, webhookUid }: Endpoint, count: number): Promise<void> {
  const now = new Date();
  const deliveries = Array.from({ length: count }, () => {
    const event: DeliverableEvent = {
      event_id: `evt_sender_${process.pid}_${++sequence}`,
      type: 'trip.started',
      timestamp: now.toISOString(),
      data: { vehicle_uid: 1 },
    };
    const routable = { event_id: event.event_id, type: event.type, vehicle_uid: 1, event: JSON.stringify(event) };
    return { delivery: queuedDelivery(user.userUid, webhookUid, routable, now), delaySeconds: 0 };
  });
  await queues.deliveries.send(deliveries);
}

const loggedAttempts = ({ user, webhookUid }: Endpoint) => readDeliveryAttempts(user.userUid, webhookUid, undefined, { take: () => true });

/** Resolves once the endpoint's log has an attempt: the clock has not moved meanwhile, so no deadline ended it. */
async function untilAttempted(endpoint: Endpoint): Promise<void> {
  while ((await loggedAttempts(endpoint)).length === 0) await sleep(20);
}

/** The batch run on `clock`, as an invocation with `remainingMs` left. */
const runBatch = (records: SQSRecord[], clock: ManualClock, remainingMs = INVOCATION_MS, resolve?: Resolve) =>
  deliverBatch(records, { remainingMs, clock, queues: (role) => queues[role], ...(resolve ? { resolve } : {}) });

const resultsOf = (results: Map<SQSRecord, MessageResult>, records: SQSRecord[]) => records.map((record) => results.get(record));

/** What went round again on the retries queue: each message's attempt and deferrals. */
const wentRound = () =>
  queues.retries.bodies().map((body) => {
    const delivery = parseQueuedDelivery(body);
    return `attempt ${delivery?.attempt}, deferrals ${delivery?.deferrals ?? 0}`;
  });

describe('a sender batch beside an endpoint that never answers', () => {
  beforeAll(() => {
    queues = { deliveries: aQueue('deliveries'), retries: aQueue('retries') };
  });

  it("delivers another user's message at once, times the hanging one out at its deadline and defers its others unattempted", async () => {
    // Prepare: nine messages to an endpoint that hangs, then one to another user's healthy endpoint
    queues = { deliveries: aQueue('deliveries'), retries: aQueue('retries') };
    const [hanging, healthy] = [await aReceiver(hangs), await aReceiver()];
    const hangingReceiver = await anEndpoint(hanging.url);
    const healthyReceiver = await anEndpoint(healthy.url);
    await queueFor(hangingReceiver, 9);
    await queueFor(healthyReceiver, 1);
    const records = queues.deliveries.receive(10);
    const clock = manualClock();
    const invokedAt = clock.now();
    // Act: the healthy delivery arrives while the clock stands still; then the hanging attempt's deadline passes
    const batch = runBatch(records, clock);
    await Promise.all([untilAttempted(healthyReceiver), hanging.waitFor(1)]);
    clock.advance(TIMEOUT_MS);
    const results = await batch;
    // Assess
    expect(resultsOf(results, records)).toEqual(['retrying', ...Array(8).fill('deferred'), 'delivered']);
    expect(clock.now() - invokedAt).toBeLessThanOrEqual(INVOCATION_MS);
    expect(hanging.received).toHaveLength(1);
    expect(healthy.received).toHaveLength(1);
    expect([...results.values()].filter((result) => LEFT_IN_QUEUE.has(result))).toEqual([]);
    expect(wentRound().sort()).toEqual([...Array(8).fill('attempt 1, deferrals 1'), 'attempt 2, deferrals 0']);
    const [logged] = await loggedAttempts(hangingReceiver);
    expect(logged).toMatchObject({ attempt: 1, statusCode: null, error: 'timed out after 10 s', state: 'retrying' });
  });

  it('gives an attempt only what the invocation has left, and defers a message with too little left for one', async () => {
    // Prepare: one message each to two hanging endpoints
    queues = { deliveries: aQueue('deliveries'), retries: aQueue('retries') };
    const hanging = await aReceiver(hangs);
    const [shortened, tooLate] = [await anEndpoint(hanging.url), await anEndpoint(hanging.url)];
    await queueFor(shortened, 1);
    const [shortenedRecord] = queues.deliveries.receive(1);
    await queueFor(tooLate, 1);
    const [tooLateRecord] = queues.deliveries.receive(1);
    const clock = manualClock();
    // Act: 9 s left leaves 3 s for the POST (the rest is its bookkeeping's); 7 s left leaves too little
    const shortenedBatch = runBatch([shortenedRecord as SQSRecord], clock, 9000);
    const tooLateResults = await runBatch([tooLateRecord as SQSRecord], clock, 7000);
    await hanging.waitFor(1);
    clock.advance(3000);
    await shortenedBatch;
    // Assess
    expect(tooLateResults.get(tooLateRecord as SQSRecord)).toBe('deferred');
    expect(hanging.received).toHaveLength(1);
    const [logged] = await loggedAttempts(shortened);
    expect(logged).toMatchObject({ error: 'timed out after 3 s', state: 'retrying' });
  });
});

describe('a sender batch of endpoints that each misbehave their own way', () => {
  it('gives each message its own outcome, and the healthy one its delivery before any deadline passes', async () => {
    // Prepare: a redirect, a 410, a 2xx whose body never ends, a host whose name server never answers, a healthy one
    queues = { deliveries: aQueue('deliveries'), retries: aQueue('retries') };
    const redirects = await aReceiver(answerWith(302, { location: 'http://127.0.0.1:1/elsewhere' }));
    const gone = await aReceiver(answerWith(410));
    const endless = await aReceiver((_, __, res) => {
      res.writeHead(200).write('and so on');
      return 'handled';
    });
    const healthy = await aReceiver();
    const endpoints = [
      await anEndpoint(redirects.url),
      await anEndpoint(gone.url),
      await anEndpoint(endless.url),
      await anEndpoint('http://slow-dns.example:8080/hooks'),
      await anEndpoint(healthy.url),
    ];
    for (const endpoint of endpoints) await queueFor(endpoint, 1);
    const records = queues.deliveries.receive(10);
    let lookedUp: () => void = () => undefined;
    const lookup = new Promise<void>((resolve) => {
      lookedUp = resolve;
    });
    const neverAnswers: Resolve = (_host, signal) =>
      new Promise((_, reject) => {
        lookedUp();
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    const clock = manualClock();
    // Act
    const batch = runBatch(records, clock, INVOCATION_MS, neverAnswers);
    const [redirecting, gone410, endlessBody, , healthyReceiver] = endpoints as Endpoint[];
    await Promise.all([...[redirecting, gone410, endlessBody, healthyReceiver].map((e) => untilAttempted(e as Endpoint)), lookup]);
    clock.advance(TIMEOUT_MS);
    const results = await batch;
    // Assess: a 3xx is retried, a 410 fails and disables, an endless 2xx is delivered, the silent lookup times out
    expect(resultsOf(results, records)).toEqual(['retrying', 'failed', 'delivered', 'retrying', 'delivered']);
    expect(redirects.received).toHaveLength(1);
    const gonesWebhook = endpoints[1] as Endpoint;
    expect(await storedWebhook(gonesWebhook.user, gonesWebhook.webhookUid)).toMatchObject({
      enabled: false,
      disabledReason: GONE_RECEIVER_REASON,
    });
    const [logged] = await loggedAttempts(endpoints[3] as Endpoint);
    expect(logged).toMatchObject({ error: 'timed out after 10 s', state: 'retrying' });
  });
});

describe("an attempt's line in the delivery log", () => {
  const SNAPSHOT = 'testWebhookWhenLogged';
  afterEach(() => void dynamo().middlewareStack.remove(SNAPSHOT));

  /** The webhook as stored at the moment the sender writes the attempt's log line. */
  function webhookWhenLogged({ user, webhookUid }: Endpoint): () => Webhook | undefined {
    let seen: Webhook | undefined;
    dynamo().middlewareStack.add(
      (next, context) => async (args) => {
        const item = (args.input as { Item?: { entity?: string; webhook_uid?: number } }).Item;
        if (context.commandName === 'PutItemCommand' && item?.entity === 'delivery_attempt' && item.webhook_uid === webhookUid)
          seen = await storedWebhook(user, webhookUid);
        return next(args);
      },
      { step: 'initialize', name: SNAPSHOT },
    );
    return () => seen;
  }

  it.each([
    { answer: 410, webhookShows: { enabled: false, disabledReason: GONE_RECEIVER_REASON } },
    { answer: 500, webhookShows: { enabled: true, failingSince: expect.any(String) } },
    { answer: 204, webhookShows: { enabled: true, lastSuccessAt: expect.any(String) } },
  ])('is written once the webhook shows what a $answer did to it', async ({ answer, webhookShows }) => {
    // Prepare
    queues = { deliveries: aQueue('deliveries'), retries: aQueue('retries') };
    const endpoint = await anEndpoint((await aReceiver(answerWith(answer))).url);
    await queueFor(endpoint, 1);
    const whenLogged = webhookWhenLogged(endpoint);
    // Act
    await runBatch(queues.deliveries.receive(10), manualClock());
    // Assess
    expect(whenLogged()).toMatchObject(webhookShows);
  });
});
