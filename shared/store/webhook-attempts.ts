/**
 * The delivery log: one item per attempt under its webhook's partition (the owner's uid in the key, so another user's
 * webhook is simply not there), newest first; gsi1 holds one event's attempts at that webhook. Items expire after
 * 30 days by TTL.
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryAttempt, DeliveryState } from '../domain/webhooks/attempt.ts';
import { DELIVERY_RETENTION_S } from '../domain/webhooks/attempt.ts';
import { dynamo, tableName } from './client.ts';
import { defineEntity, nullableNumber, nullableText, number, stored, text } from './entity.ts';
import { keys } from './keys.ts';
import { type PagedRead, readTaken } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

const deliveryAttemptEntity = defineEntity<DeliveryAttempt, number>({
  keys: (attempt, userUid) => ({
    ...keys.deliveryAttempt(userUid, attempt.webhookUid, attempt.attemptedAt, attempt.eventId, attempt.attempt),
    ...keys.deliveryAttemptOfEvent(userUid, attempt.webhookUid, attempt.eventId, attempt.attemptedAt, attempt.attempt),
  }),
  fields: {
    webhookUid: number('webhook_uid'),
    eventId: text('event_id'),
    eventType: text('event_type'),
    attempt: number('attempt'),
    attemptedAt: text('attempted_at'),
    statusCode: nullableNumber('status_code'),
    error: nullableText('error'),
    durationMs: number('duration_ms'),
    state: stored<DeliveryState>('state'),
    nextAttemptAt: nullableText('next_attempt_at'),
  },
  derived: (attempt) => ({
    entity: 'delivery_attempt',
    [tableDefinition.ttlAttribute]: Math.floor(Date.parse(attempt.attemptedAt) / 1000) + DELIVERY_RETENTION_S,
  }),
});

/** Records one attempt of a user's webhook. */
export async function recordDeliveryAttempt(userUid: number, attempt: DeliveryAttempt): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName(), Item: deliveryAttemptEntity.toItem(attempt, userUid) }));
}

/** A webhook's attempts newest first, or only those of one event; as many as `read` takes, from where it starts. */
export async function readDeliveryAttempts(
  userUid: number,
  webhookUid: number,
  eventId: string | undefined,
  read: PagedRead<DeliveryAttempt>,
): Promise<DeliveryAttempt[]> {
  const range =
    eventId === undefined ? keys.deliveryAttemptRange(userUid, webhookUid) : keys.deliveryAttemptOfEventRange(userUid, webhookUid, eventId);
  return readTaken(range, deliveryAttemptEntity.fromItem, read, { ScanIndexForward: false });
}
