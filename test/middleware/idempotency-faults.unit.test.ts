/**
 * Idempotency when DynamoDB fails around the create, which DynamoDB Local cannot do on demand: addExpenseType's whole
 * chain in-process, with aws-sdk-client-mock answering the key lookup, the rate limit, the claim, the create and the
 * completion.
 */
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/addExpenseType/handler.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { keys } from '../../shared/store/keys.ts';
import { timedOut } from '../support/dynamodb-faults.ts';
import { aContext, anEvent } from '../support/events.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
// the worker's next files share this class (vitest.config.ts, isolate: false)
afterAll(() => dynamo.restore());
const KEY = 'k3y-of-the-idempotent-user';

/** The counter's next id, the rate limit's bucket, or the completion, which `completion` answers. */
function updates(completion: () => Promise<object>) {
  return async (input: { UpdateExpression?: string }) => {
    if (input.UpdateExpression?.includes('answer')) return completion();
    if (input.UpdateExpression?.includes('#value')) return { Attributes: { value: 41 } };
    return { Attributes: { tat: Date.now() } };
  };
}

beforeEach(() => {
  dynamo.on(GetCommand).resolves({});
  dynamo
    .on(GetCommand, { Key: keys.apiKey(hashApiKey(KEY)) })
    .resolves({ Item: { ...keys.apiKey(hashApiKey(KEY)), user_uid: 42, gmt_offset_minutes: 0, locked: false } });
  dynamo.on(PutCommand).resolves({});
  dynamo.on(TransactWriteCommand).resolves({});
  dynamo.on(DeleteCommand).resolves({});
});
afterEach(() => dynamo.reset());

const addExpenseType = () =>
  handler(
    anEvent({
      operation: 'addExpenseType',
      method: 'POST',
      query: `api_key=${KEY}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': 'order-7' },
      body: 'expense_name=Tolls',
    }),
    aContext('addExpenseType'),
  ) as Promise<APIGatewayProxyResult>;

describe('an Idempotency-Key when DynamoDB fails', () => {
  it('keeps the claim when the record was created but its answer could not be kept, so a retry is not run again at once', async () => {
    // Prepare
    dynamo.on(UpdateCommand).callsFake(updates(() => Promise.reject(timedOut())));
    // Act
    const result = await addExpenseType();
    // Assess
    expect(result.statusCode).toBe(503);
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('releases the claim when the create itself failed, so the retry creates', async () => {
    // Prepare
    dynamo.on(UpdateCommand).callsFake(updates(() => Promise.resolve({})));
    dynamo.on(TransactWriteCommand).rejects(timedOut());
    // Act
    const result = await addExpenseType();
    // Assess
    expect(result.statusCode).toBe(503);
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(DeleteCommand)[0]?.args[0].input.ExpressionAttributeValues).toMatchObject({ ':inProgress': 'in-progress' });
  });

  it('keeps the first answer once the create and its completion succeeded', async () => {
    // Prepare
    dynamo.on(UpdateCommand).callsFake(updates(() => Promise.resolve({})));
    // Act
    const result = await addExpenseType();
    // Assess
    expect(result.statusCode).toBe(200);
    const completion = dynamo.commandCalls(UpdateCommand).find((call) => call.args[0].input.UpdateExpression?.includes('answer'));
    expect(JSON.parse(completion?.args[0].input.ExpressionAttributeValues?.[':answer'])).toMatchObject({ type: expect.any(Number) });
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
  });
});
