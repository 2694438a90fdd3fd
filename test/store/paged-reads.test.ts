/**
 * What a paged read (shared/store/requests.ts, readTaken) asks of DynamoDB Local: no more items than its page can take,
 * and one more to tell whether more exist, where it read a whole 1 MB page. The delivery log stands in for every range.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../shared/domain/webhooks/attempt.ts';
import { dynamo } from '../../shared/store/client.ts';
import type { ItemPosition, PagedRead } from '../../shared/store/requests.ts';
import { readDeliveryAttempts, recordDeliveryAttempt } from '../../shared/store/webhook-attempts.ts';
import { givenUser, type TestUser } from '../support/builders.ts';
import { givenWebhook } from '../support/webhook-builders.ts';

const ATTEMPTS = 30;
const COUNTER = 'testQueriedItems';

/** A webhook with ATTEMPTS attempts in its log, a second apart. */
async function givenLoggedWebhook(): Promise<{ user: TestUser; webhookUid: number }> {
  const user = await givenUser();
  const { webhookUid } = await givenWebhook(user);
  await Promise.all(
    Array.from({ length: ATTEMPTS }, (_, n) =>
      recordDeliveryAttempt(user.userUid, {
        webhookUid,
        eventId: `evt_${String(n).padStart(32, '0')}`,
        eventType: 'trip.started',
        attempt: 1,
        attemptedAt: new Date(Date.UTC(2026, 10, 26, 10, 0, n)).toISOString(),
        statusCode: 204,
        error: null,
        durationMs: 12,
        state: 'delivered',
        nextAttemptAt: null,
      }),
    ),
  );
  return { user, webhookUid };
}

/** Takes up to `most` records from `after`, saying so (`most`) or not; keeps the positions it took. */
function aPage(most: number, { after, saysMost = true }: { after?: ItemPosition; saysMost?: boolean } = {}) {
  const positions: ItemPosition[] = [];
  const read: PagedRead<DeliveryAttempt> = {
    after,
    ...(saysMost ? { most } : {}),
    take: (_record, position) => positions.length < most && positions.push(position) > 0,
  };
  return { read, positions };
}

/** The items DynamoDB's Queries answer from now on. */
function countQueriedItems(): () => number {
  let count = 0;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'QueryCommand') count += ((result.output as { Items?: unknown[] }).Items ?? []).length;
      return result;
    },
    { step: 'initialize', name: COUNTER },
  );
  return () => count;
}

describe('a paged read', () => {
  afterEach(() => void dynamo().middlewareStack.remove(COUNTER));

  it('reads one item past the most its page takes, not the whole range', async () => {
    // Prepare
    const { user, webhookUid } = await givenLoggedWebhook();
    const queried = countQueriedItems();
    // Act
    const taken = await readDeliveryAttempts(user.userUid, webhookUid, undefined, aPage(5).read);
    // Assess
    expect(taken).toHaveLength(5);
    expect(queried()).toBe(6);
  });

  it('reads the whole range when its page does not say how many it takes', async () => {
    // Prepare
    const { user, webhookUid } = await givenLoggedWebhook();
    const queried = countQueriedItems();
    // Act
    const taken = await readDeliveryAttempts(user.userUid, webhookUid, undefined, aPage(5, { saysMost: false }).read);
    // Assess
    expect(taken).toHaveLength(5);
    expect(queried()).toBe(ATTEMPTS);
  });

  it('walks the range page by page to the same records, in the same order, as one read of it all', async () => {
    // Prepare
    const { user, webhookUid } = await givenLoggedWebhook();
    const whole = await readDeliveryAttempts(user.userUid, webhookUid, undefined, aPage(ATTEMPTS).read);
    // Act
    const walked: DeliveryAttempt[] = [];
    for (let after: ItemPosition | undefined, pages = 0; pages < ATTEMPTS; pages++) {
      const page = aPage(7, { ...(after ? { after } : {}) });
      const taken = await readDeliveryAttempts(user.userUid, webhookUid, undefined, page.read);
      walked.push(...taken);
      after = page.positions.at(-1);
      if (taken.length < 7) break;
    }
    // Assess
    expect(whole).toHaveLength(ATTEMPTS);
    expect(walked).toEqual(whole);
  });
});
