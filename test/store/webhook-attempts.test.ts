/** The delivery log on DynamoDB Local: attempts written per endpoint, read newest first, by page and by event. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../../shared/domain/webhooks/attempt.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import type { PagedRead } from '../../shared/store/requests.ts';
import { readDeliveryAttempts, recordDeliveryAttempt } from '../../shared/store/webhook-attempts.ts';
import { givenUser } from '../support/builders.ts';
import { givenWebhook } from '../support/webhook-builders.ts';

const anAttempt = (webhookUid: number, overrides: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  webhookUid,
  eventId: 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  eventType: 'trip.started',
  attempt: 1,
  attemptedAt: '2026-11-26T10:00:00.000Z',
  statusCode: 500,
  error: null,
  durationMs: 12,
  state: 'retrying',
  nextAttemptAt: '2026-11-26T10:00:05.000Z',
  ...overrides,
});

/** Takes every record up to `max`, from `after`. */
const upTo = (max: number, after?: PagedRead<DeliveryAttempt>['after']) => {
  const positions: NonNullable<PagedRead<DeliveryAttempt>['after']>[] = [];
  const read: PagedRead<DeliveryAttempt> = {
    after,
    take: (_record, position) => {
      if (positions.length >= max) return false;
      positions.push(position);
      return true;
    },
  };
  return { read, positions };
};

describe('the delivery log', () => {
  it('reads back every field of an attempt as it was recorded', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const attempt = anAttempt(webhook.webhookUid, { statusCode: null, error: 'timed out after 10 s', durationMs: 10_001 });
    await recordDeliveryAttempt(user.userUid, attempt);
    expect(await readDeliveryAttempts(user.userUid, webhook.webhookUid, undefined, upTo(10).read)).toEqual([attempt]);
  });

  it('keeps an attempt 30 days after it was made', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const attempt = anAttempt(webhook.webhookUid);
    await recordDeliveryAttempt(user.userUid, attempt);
    const { Item } = await dynamo().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.deliveryAttempt(user.userUid, webhook.webhookUid, attempt.attemptedAt, attempt.eventId, attempt.attempt),
      }),
    );
    expect(Item?.expires_at).toBe(Date.parse(attempt.attemptedAt) / 1000 + 30 * 24 * 3600);
  });

  it('lists the newest attempt first and resumes a page after the last one taken', async () => {
    // Prepare: five attempts a minute apart
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const attempts = [0, 1, 2, 3, 4].map((minute) =>
      anAttempt(webhook.webhookUid, { attempt: minute + 1, attemptedAt: `2026-11-26T10:0${minute}:00.000Z` }),
    );
    for (const attempt of attempts) await recordDeliveryAttempt(user.userUid, attempt);
    // Act
    const first = upTo(2);
    const page1 = await readDeliveryAttempts(user.userUid, webhook.webhookUid, undefined, first.read);
    const page2 = await readDeliveryAttempts(user.userUid, webhook.webhookUid, undefined, upTo(10, first.positions.at(-1)).read);
    // Assess
    expect(page1.map((a) => a.attempt)).toEqual([5, 4]);
    expect(page2.map((a) => a.attempt)).toEqual([3, 2, 1]);
  });

  it("lists one event's attempts when an event_id is given", async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const mine = 'evt_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    await recordDeliveryAttempt(user.userUid, anAttempt(webhook.webhookUid, { eventId: mine, attemptedAt: '2026-11-26T10:00:00.000Z' }));
    await recordDeliveryAttempt(user.userUid, anAttempt(webhook.webhookUid, { attemptedAt: '2026-11-26T10:01:00.000Z' }));
    await recordDeliveryAttempt(
      user.userUid,
      anAttempt(webhook.webhookUid, {
        eventId: mine,
        attempt: 2,
        attemptedAt: '2026-11-26T10:02:00.000Z',
        statusCode: 200,
        state: 'delivered',
      }),
    );
    const listed = await readDeliveryAttempts(user.userUid, webhook.webhookUid, mine, upTo(10).read);
    expect(listed.map((a) => [a.eventId, a.attempt])).toEqual([
      [mine, 2],
      [mine, 1],
    ]);
  });

  it("keeps each endpoint's and each user's attempts apart", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const [webhook, second] = [await givenWebhook(user), await givenWebhook(user)];
    await recordDeliveryAttempt(user.userUid, anAttempt(webhook.webhookUid));
    expect(await readDeliveryAttempts(user.userUid, second.webhookUid, undefined, upTo(10).read)).toEqual([]);
    expect(await readDeliveryAttempts(other.userUid, webhook.webhookUid, undefined, upTo(10).read)).toEqual([]);
  });
});
