/**
 * An endpoint's concurrency cap (WEBHOOK_ENDPOINT_CONCURRENCY) as leases on its slot items: a sender takes a free or
 * expired slot with a conditional Put before it POSTs and frees it after, so a slow receiver holds at most that many
 * senders whichever Lambda instances run them. A lease expires by itself past the attempt's longest time, so a sender
 * that dies holding one blocks nothing for long.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { isConditionFailed } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

export interface SlotLease {
  release(): Promise<void>;
}

/**
 * A lease on one of the webhook's `slots` slots for `holdMs`; or, when all are held, when the latest of them was
 * taken (epoch ms), which tells a fast receiver's busy slots (taken a moment ago) from a slow one's.
 */
export async function leaseWebhookSlot(
  userUid: number,
  webhookUid: number,
  slots: number,
  holdMs: number,
  now = Date.now(),
): Promise<{ lease: SlotLease } | { newestTakenAt: number }> {
  const lease = randomUUID();
  const first = Math.floor(Math.random() * slots);
  let newestTakenAt = 0;
  for (let offset = 0; offset < slots; offset++) {
    const key = keys.webhookSlot(userUid, webhookUid, (first + offset) % slots);
    try {
      await dynamo().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...key,
            lease,
            taken_ms: now,
            held_until_ms: now + holdMs,
            [tableDefinition.ttlAttribute]: Math.ceil((now + holdMs) / 1000) + 3600,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR held_until_ms < :now',
          ExpressionAttributeValues: { ':now': now },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return {
        lease: {
          async release() {
            try {
              await dynamo().send(
                new DeleteCommand({
                  TableName: tableName(),
                  Key: key,
                  ConditionExpression: 'lease = :lease',
                  ExpressionAttributeValues: { ':lease': lease },
                }),
              );
            } catch (error) {
              // expired and taken by another sender meanwhile: that lease is theirs now
              if (!isConditionFailed(error)) throw error;
            }
          },
        },
      };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      newestTakenAt = Math.max(newestTakenAt, takenAtOf(error));
    }
  }
  return { newestTakenAt };
}

/** When the held slot was taken: the failed condition's item comes back in DynamoDB's own format (0 if it has none). */
const takenAtOf = (error: unknown): number => Number((error as { Item?: { taken_ms?: { N?: string } } }).Item?.taken_ms?.N ?? 0);
