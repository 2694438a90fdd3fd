import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  MAX_WEBHOOKS_PER_USER,
  type SigningSecret,
  TOO_MANY_WEBHOOKS,
  type Webhook,
  type WebhookDetails,
} from '../domain/webhooks/webhook.ts';
import { busyMessage, Conflict, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { defineEntity, flag, nullableText, number, stored, text } from './entity.ts';
import { keys } from './keys.ts';
import { failedConditions, isConditionFailed, queryRange, transactWrite, writeWithOptimisticRetry } from './requests.ts';

const BUSY = busyMessage('webhook');

/** Attribute names are the contract's field names; lists are stored as lists; the item sits under its owner's partition. */
const webhookEntity = defineEntity<Webhook, number>({
  keys: (webhook, userUid) => keys.webhook(userUid, webhook.webhookUid),
  fields: {
    webhookUid: number('webhook_uid'),
    url: text('url'),
    eventTypes: stored<string[]>('event_types'),
    vehicleUids: stored<number[]>('vehicle_uids'),
    description: text('description'),
    enabled: flag('enabled'),
    disabledReason: nullableText('disabled_reason'),
    createdAt: text('created_at'),
    lastSuccessAt: nullableText('last_success_at'),
    failingSince: nullableText('failing_since'),
    secrets: stored<SigningSecret[]>('secrets'),
  },
  derived: () => ({ entity: 'webhook' }),
});

/** The user's webhooks by webhook_uid. */
export async function listWebhooks(userUid: number): Promise<Webhook[]> {
  const items = await queryRange(keys.webhookRange(userUid));
  return items.map(webhookEntity.fromItem);
}

/** The user's webhook; NotFound when there is none or it is another user's. */
export async function getWebhook(userUid: number, webhookUid: number, consistentRead = false): Promise<Webhook> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhook(userUid, webhookUid), ConsistentRead: consistentRead }),
  );
  if (!Item) throw NotFound.notLinked('webhook');
  return webhookEntity.fromItem(Item);
}

/**
 * The webhook and the user's count go in one transaction conditioned on the count, so ten requests racing for the
 * last place leave exactly one more webhook, never an eleventh.
 */
export async function addWebhook(userUid: number, details: WebhookDetails, secret: string, now: Date): Promise<Webhook> {
  const webhook: Webhook = {
    ...details,
    webhookUid: await nextId('webhook'),
    enabled: true,
    disabledReason: null,
    createdAt: now.toISOString(),
    lastSuccessAt: null,
    failingSince: null,
    secrets: [{ secret }],
  };
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: webhookEntity.toItem(webhook, userUid), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: keys.webhookCount(userUid),
          UpdateExpression: 'ADD webhooks :one',
          ConditionExpression: 'attribute_not_exists(webhooks) OR webhooks < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOKS_PER_USER },
        },
      },
    ]);
  } catch (error) {
    if (failedConditions(error)?.[1]) throw new Conflict(TOO_MANY_WEBHOOKS, { cause: error });
    throw error;
  }
  return webhook;
}

/** What an edit may change; omitted (undefined) fields keep their value. */
export type WebhookChanges = Partial<WebhookDetails & Pick<Webhook, 'enabled' | 'disabledReason' | 'failingSince' | 'secrets'>>;

/**
 * Sets only the fields changed. `changesFor` sees the webhook as read (a rotation builds on its secrets), so the
 * update is conditioned on the secrets read and a concurrent rotation is read again rather than lost.
 */
export async function editWebhook(userUid: number, webhookUid: number, changesFor: (current: Webhook) => WebhookChanges): Promise<Webhook> {
  return writeWithOptimisticRetry({
    read: () => getWebhook(userUid, webhookUid, true),
    write: async (current) => {
      const changes = changesFor(current);
      const update = webhookEntity.update(changes);
      if (update)
        await dynamo().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.webhook(userUid, webhookUid),
            ...update,
            ConditionExpression: 'secrets = :seenSecrets',
            ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':seenSecrets': current.secrets },
          }),
        );
      return { ...current, ...changes };
    },
    busyMessage: BUSY,
  });
}

/** The webhook and one place in the user's count go together: a deleted webhook frees its place at once. */
export async function deleteWebhook(userUid: number, webhookUid: number): Promise<void> {
  await writeWithOptimisticRetry({
    read: () => getWebhook(userUid, webhookUid, true),
    write: () =>
      transactWrite([
        { Delete: { TableName: tableName(), Key: keys.webhook(userUid, webhookUid), ConditionExpression: 'attribute_exists(pk)' } },
        {
          Update: {
            TableName: tableName(),
            Key: keys.webhookCount(userUid),
            UpdateExpression: 'ADD webhooks :minusOne',
            ExpressionAttributeValues: { ':minusOne': -1 },
          },
        },
      ]),
    busyMessage: BUSY,
  });
}

/** What a delivery attempt tells of its webhook (shared/webhooks/sender.ts). */
export type WebhookOutcome = { kind: 'success'; at: string } | { kind: 'failure'; at: string } | { kind: 'disabled'; reason: string };

/**
 * Records on the webhook what an attempt showed: a success sets last_success and clears failing_since, a failure sets
 * failing_since unless already failing, a disabling turns it off with why. A webhook deleted meanwhile stays deleted
 * (the condition fails and nothing is written).
 */
export async function recordWebhookOutcome(userUid: number, webhookUid: number, outcome: WebhookOutcome): Promise<void> {
  const update =
    outcome.kind === 'success'
      ? { UpdateExpression: 'SET last_success_at = :at REMOVE failing_since', ExpressionAttributeValues: { ':at': outcome.at } }
      : outcome.kind === 'failure'
        ? {
            // the first failure since a success only: a null failing_since is stored as a NULL attribute
            UpdateExpression: 'SET failing_since = :at',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(failing_since) OR attribute_type(failing_since, :null))',
            ExpressionAttributeValues: { ':at': outcome.at, ':null': 'NULL' },
          }
        : {
            UpdateExpression: 'SET enabled = :off, disabled_reason = :reason',
            ExpressionAttributeValues: { ':off': 0, ':reason': outcome.reason },
          };
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(userUid, webhookUid),
        ConditionExpression: 'attribute_exists(pk)',
        ...update,
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/** The webhook as a delivery finds it now (strongly consistent: a disabling or deletion just made is seen), or undefined. */
export async function findWebhookForDelivery(userUid: number, webhookUid: number): Promise<Webhook | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhook(userUid, webhookUid), ConsistentRead: true }),
  );
  return Item ? webhookEntity.fromItem(Item) : undefined;
}
