/**
 * The local webhook queues enforce IAM as SQS does (local/sqs-queue.ts): a send or a visibility change is asked
 * of the running function's role on the queue's ARN, a batch as its single action (sqs:SendMessage), and a queue's
 * poller starts only for a function whose role may receive and delete, as creating an event source mapping requires.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerPath } from '../../functions/registry.ts';
import { enforceIam, runAs, stopEnforcingIam } from '../../local/iam/enforcement.ts';
import type { Principals } from '../../local/iam/principals.ts';
import { type LocalDeliveryQueue, localDeliveryQueue, startQueuePoller } from '../../local/sqs-queue.ts';
import { env } from '../../shared/config.ts';
import { queuedDelivery } from '../../shared/domain/webhooks/delivery.ts';
import { deliverySettings } from '../../shared/webhooks/queues.ts';

/** The policies the local stack enforces: synthesized once by the run's global setup (local/iam/local-iam.ts). */
const enforced = (): Principals => JSON.parse(readFileSync(process.env.LOCAL_IAM_POLICIES as string, 'utf8')).principals;

const SENDER = handlerPath('sendWebhooks');
const REDELIVER = handlerPath('redeliverEvents');
const ROUTER = handlerPath('routeWebhookEvents');

/** The policies with every statement that grants `action` to `key` taken out. */
function without(principals: Principals, key: string, action: string): Principals {
  const principal = principals[key] as Principals[string];
  const grants = (statement: { Action?: string | string[] }) => [statement.Action ?? []].flat().includes(action);
  if (!principal.statements.some(grants)) throw new Error(`${key} is not granted ${action}: nothing to take out`);
  return { ...principals, [key]: { ...principal, statements: principal.statements.filter((statement) => !grants(statement)) } };
}

const queueOf = (role: 'deliveries' | 'retries'): LocalDeliveryQueue =>
  localDeliveryQueue({
    ...deliverySettings,
    name: `webhook-${role}`,
    urlVariable: role === 'deliveries' ? env.webhookQueueUrl : env.webhookRetryQueueUrl,
  });

const aMessage = () => [
  {
    delivery: queuedDelivery(1, 2, { event_id: 'evt_iam', type: 'trip.started', vehicle_uid: 3, event: '{}' }, new Date()),
    delaySeconds: 0,
  },
];

describe('a local webhook queue under IAM', () => {
  const callsDir = process.env.LOCAL_IAM_CALLS_DIR;
  beforeAll(() => {
    // The refusals asked for here are not the code's: they stay out of the run's record of calls.
    delete process.env.LOCAL_IAM_CALLS_DIR;
    enforceIam(enforced());
  });
  afterAll(() => {
    stopEnforcingIam();
    process.env.LOCAL_IAM_CALLS_DIR = callsDir;
  });

  it('takes a batch from a function granted sqs:SendMessage on that queue: redeliverEvents on the retries queue', async () => {
    // Prepare
    const retries = queueOf('retries');
    // Act
    await runAs(REDELIVER, () => retries.send(aMessage()));
    // Assess
    expect(retries.depth().queued).toBe(1);
  });

  it("refuses redeliverEvents the first attempts' queue, which its role does not name", async () => {
    // Prepare
    const deliveries = queueOf('deliveries');
    // Act
    const refusal = await runAs(REDELIVER, () => deliveries.send(aMessage())).catch((error: unknown) => error);
    // Assess
    expect(refusal).toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('sqs:SendMessage on resource: arn:aws:sqs:'),
    });
    expect(deliveries.depth().queued).toBe(0);
  });

  it('refuses the sender its retries once its role loses sqs:SendMessage', async () => {
    // Prepare
    enforceIam(without(enforced(), SENDER, 'sqs:SendMessage'));
    const retries = queueOf('retries');
    // Act
    const refusal = await runAs(SENDER, () => retries.send(aMessage())).catch((error: unknown) => error);
    enforceIam(enforced());
    // Assess
    expect(refusal).toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('is not authorized to perform: sqs:SendMessage'),
    });
    expect(retries.depth().queued).toBe(0);
  });

  it('starts a poller only for a consumer whose role may receive and delete: the sender, not the router', async () => {
    // Prepare
    const deliveries = queueOf('deliveries');
    const options = {
      queue: deliveries,
      urlVariable: env.webhookQueueUrl,
      handler: async () => ({ batchItemFailures: [] }),
      batchSize: 10,
      concurrency: 1,
      timeoutMs: 30_000,
    };
    // Act
    const refusal = await startQueuePoller({ ...options, consumer: ROUTER }).catch((error: unknown) => error);
    const poller = await startQueuePoller({ ...options, consumer: SENDER });
    await poller.stop();
    // Assess
    expect(refusal).toMatchObject({ name: 'AccessDeniedException', message: expect.stringContaining('sqs:ReceiveMessage') });
  });
});
