/**
 * The in-process SQS stand-in: what the sender relies on (delay, visibility, receive count, dead-letter queue) and
 * what SQS refuses, refused here too; and a long retry wait served by visibility timeouts of at most 12 h, chained.
 */
import { describe, expect, it } from 'vitest';
import { localDeliveryQueue } from '../../local/sqs-queue.ts';
import type { QueuedDelivery } from '../../shared/domain/webhooks/delivery.ts';
import { parseRetrySchedule, retryDelaySeconds } from '../../shared/domain/webhooks/retry-schedule.ts';
import { SQS_LIMITS } from '../../shared/webhooks/queues.ts';
import { deliverQueued, systemClock } from '../../shared/webhooks/sender.ts';

const aDelivery = (overrides: Partial<QueuedDelivery> = {}): QueuedDelivery => ({
  user_uid: 1,
  webhook_uid: 2,
  event_id: 'evt_1',
  event_type: 'trip.started',
  event: '{}',
  attempt: 1,
  ...overrides,
});

const aQueue = () =>
  localDeliveryQueue({ name: 'webhook-deliveries', urlVariable: 'WEBHOOK_QUEUE_URL', visibilityTimeoutS: 30, maxReceiveCount: 3 });

describe('the local deliveries queue', () => {
  it('refuses what SQS refuses: more than 10 messages a batch is split, a message over 256 KB, a delay over 900 s', async () => {
    const queue = aQueue();
    await queue.send(Array.from({ length: 25 }, () => ({ delivery: aDelivery(), delaySeconds: 0 })));
    expect(queue.depth().queued).toBe(25);
    await expect(queue.send([{ delivery: aDelivery({ event: 'x'.repeat(SQS_LIMITS.messageBytes) }), delaySeconds: 0 }])).rejects.toThrow(
      /SQS would refuse a batch of \d+ bytes/,
    );
    await expect(queue.send([{ delivery: aDelivery(), delaySeconds: 901 }])).rejects.toThrow('SQS would refuse a DelaySeconds of 901');
    await expect(queue.send([{ delivery: aDelivery(), delaySeconds: 1.5 }])).rejects.toThrow('SQS would refuse a DelaySeconds of 1.5');
  });

  it('keeps a delayed message out of sight until its delay has passed', async () => {
    const queue = aQueue();
    await queue.send([{ delivery: aDelivery(), delaySeconds: 5 }]);
    expect(queue.receive(10)).toEqual([]);
    expect(queue.receive(10, Date.now() + 5_001)).toHaveLength(1);
  });

  it('hides a received message for the visibility timeout, counts its receives and dead-letters it past maxReceiveCount', async () => {
    const queue = aQueue();
    await queue.send([{ delivery: aDelivery(), delaySeconds: 0 }]);
    const now = Date.now();
    const [first] = queue.receive(10, now);
    expect(first?.attributes.ApproximateReceiveCount).toBe('1');
    expect(queue.receive(10, now + 29_000)).toEqual([]);
    expect(queue.receive(10, now + 31_000)[0]?.attributes.ApproximateReceiveCount).toBe('2');
    expect(queue.receive(10, now + 62_000)[0]?.attributes.ApproximateReceiveCount).toBe('3');
    expect(queue.receive(10, now + 93_000)).toEqual([]);
    expect(queue.depth()).toEqual({ queued: 0, deadLetters: 1, sent: 1 });
  });

  it('deletes and hides only by the latest receipt handle, and refuses a visibility over 12 h', async () => {
    const queue = aQueue();
    await queue.send([{ delivery: aDelivery(), delaySeconds: 0 }]);
    const [record] = queue.receive(1);
    await expect(queue.changeVisibility(record?.receiptHandle as string, 43_201)).rejects.toThrow(
      'SQS would refuse a VisibilityTimeout of 43201',
    );
    await queue.changeVisibility(record?.receiptHandle as string, 0);
    const [again] = queue.receive(1);
    await expect(queue.changeVisibility(record?.receiptHandle as string, 10)).rejects.toThrow(/receipt handle/);
    queue.deleteMessage(again?.receiptHandle as string);
    expect(queue.depth().queued).toBe(0);
  });
});

describe('a retry wait longer than the queue can delay', () => {
  it('is served by hiding the message up to 12 h from its receive, again and again until it is due', async () => {
    // Prepare: an attempt due in 24 h, received now
    const queue = aQueue();
    const now = new Date();
    const dueIn24h = new Date(now.getTime() + 86_400_000).toISOString();
    await queue.send([{ delivery: aDelivery({ attempt: 9, not_before: dueIn24h }), delaySeconds: 0 }]);
    const [record] = queue.receive(1, now.getTime());
    // Act
    const outcome = await deliverQueued(
      aDelivery({ attempt: 9, not_before: dueIn24h }),
      {
        receiptHandle: record?.receiptHandle as string,
        receivedAt: now.getTime(),
      },
      { clock: { ...systemClock, now: () => now.getTime() }, queues: () => queue },
    );
    // Assess: kept, hidden for the 12 h a receive allows, then received again for the rest
    expect(outcome).toEqual({ disposition: 'keep', result: 'not yet' });
    expect(queue.nextVisibleAt()).toBeGreaterThanOrEqual(now.getTime() + 43_199_000);
    expect(queue.receive(1, now.getTime() + 43_100_000)).toEqual([]);
    expect(queue.receive(1, now.getTime() + 43_201_000)).toHaveLength(1);
  });
});

describe('the retry schedule', () => {
  it('reads WEBHOOK_RETRY_SCHEDULE_S as comma-separated positive seconds, and refuses anything else', () => {
    expect(parseRetrySchedule('5, 300,1800')).toEqual([5, 300, 1800]);
    expect(parseRetrySchedule('5,,300')).toBeUndefined();
    expect(parseRetrySchedule('5,-1')).toBeUndefined();
    expect(parseRetrySchedule('soon')).toBeUndefined();
  });

  it('waits the scheduled time within ±10 %, a Retry-After instead when given, and nothing after the last', () => {
    const schedule = [5, 300, 1800];
    expect(retryDelaySeconds(1, schedule, undefined, () => 0)).toBeCloseTo(4.5);
    expect(retryDelaySeconds(2, schedule, undefined, () => 1)).toBeCloseTo(330);
    expect(retryDelaySeconds(2, schedule, 42)).toBe(42);
    expect(retryDelaySeconds(3, schedule, 10 * 86_400)).toBe(86_400);
    expect(retryDelaySeconds(4, schedule)).toBeUndefined();
  });
});
