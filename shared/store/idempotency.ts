/**
 * Idempotency records: one per user, Idempotency-Key and operation, claimed with a conditional write before the
 * operation runs and completed with its answer after. DynamoDB's TTL removes them after the retention window.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { isConditionFailed } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

export interface IdempotencyScope {
  userUid: number;
  operation: string;
  idempotencyKey: string;
}

/** A completed answer: its secret fields are null, their SHA-256 (hex) by field in secretHashes (absent on records made before). */
export interface StoredAnswer {
  answer: Record<string, unknown>;
  secretHashes?: Record<string, string>;
}

export type IdempotencyRecord =
  | { status: 'in-progress'; fingerprint: string; lockedUntil: number }
  | ({ status: 'completed'; fingerprint: string } & StoredAnswer);

export type Claim = { claimed: true } | { claimed: false; existing: IdempotencyRecord };

const TTL = tableDefinition.ttlAttribute;

/**
 * Claims the key for this request: succeeds when there is no live record, or when an earlier claim's lock ran out
 * without an answer (its function crashed). Otherwise returns the record that holds the key.
 */
export async function claimIdempotencyKey(scope: IdempotencyScope, fingerprint: string, retentionS: number, lockS: number): Promise<Claim> {
  const nowS = Math.floor(Date.now() / 1000);
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keyOf(scope), status: 'in-progress', fingerprint, locked_until: nowS + lockS, [TTL]: nowS + retentionS },
        ConditionExpression:
          'attribute_not_exists(pk) OR #ttl < :now OR (#status = :inProgress AND locked_until < :now AND fingerprint = :fingerprint)',
        ExpressionAttributeNames: { '#ttl': TTL, '#status': 'status' },
        ExpressionAttributeValues: { ':now': nowS, ':inProgress': 'in-progress', ':fingerprint': fingerprint },
      }),
    );
    return { claimed: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keyOf(scope), ConsistentRead: true }));
  if (!Item) return claimIdempotencyKey(scope, fingerprint, retentionS, lockS);
  return {
    claimed: false,
    existing:
      Item.status === 'completed'
        ? {
            status: 'completed',
            fingerprint: Item.fingerprint,
            answer: JSON.parse(Item.answer),
            ...(Item.secret_hashes && { secretHashes: Item.secret_hashes }),
          }
        : { status: 'in-progress', fingerprint: Item.fingerprint, lockedUntil: Item.locked_until },
  };
}

/** Keeps the first answer for the retention window (counted from the claim), its secrets already replaced by their hashes. */
export async function completeIdempotencyKey(scope: IdempotencyScope, { answer, secretHashes = {} }: StoredAnswer): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keyOf(scope),
      UpdateExpression: 'SET #status = :completed, answer = :answer, secret_hashes = :secretHashes REMOVE locked_until',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':completed': 'completed', ':answer': JSON.stringify(answer), ':secretHashes': secretHashes },
    }),
  );
}

/** A request that failed created nothing, so its key is released for the client's retry. */
export async function releaseIdempotencyKey(scope: IdempotencyScope, fingerprint: string): Promise<void> {
  await dynamo()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keyOf(scope),
        ConditionExpression: '#status = :inProgress AND fingerprint = :fingerprint',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':inProgress': 'in-progress', ':fingerprint': fingerprint },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailed(error)) throw error;
    });
}

const keyOf = ({ userUid, operation, idempotencyKey }: IdempotencyScope) => keys.idempotencyRecord(userUid, operation, idempotencyKey);
