/**
 * DynamoDB Local is always strongly consistent, and DynamoDB is not unless asked: what deleteRoute asks for is checked
 * against a mocked client.
 */
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { deleteRoute } from '../../shared/store/routes.ts';
import { cancelledTransaction } from '../support/dynamodb-faults.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
// the worker's next files share this class (vitest.config.ts, isolate: false)
afterAll(() => dynamo.restore());
afterEach(() => dynamo.reset());

/** The route as stored: under the spec's names. */
const storedRoute = {
  route_uid: 9,
  route_name: 'Depot run',
  vehicle_uid: 3,
  directions_source: 'osrm',
  stops: [],
  legs: [],
  created_at: '2026-11-27T08:00:00Z',
};

describe('deleteRoute', () => {
  it('reads the route strongly consistently, so a route added a moment ago is found', async () => {
    // Prepare
    dynamo.on(GetCommand).resolves({ Item: storedRoute });
    dynamo.on(TransactWriteCommand).resolves({});
    // Act
    await deleteRoute(7, 9);
    // Assess
    expect(dynamo.commandCalls(GetCommand)[0]?.args[0].input).toMatchObject({ ConsistentRead: true });
  });

  it('answers not found when its retry reads the route deleted by a request that beat it', async () => {
    // Prepare
    dynamo.on(GetCommand).resolvesOnce({ Item: storedRoute }).resolves({});
    dynamo.on(TransactWriteCommand).rejects(cancelledTransaction('ConditionalCheckFailed'));
    // Act
    const deleting = deleteRoute(7, 9);
    // Assess
    await expect(deleting).rejects.toMatchObject({ status: 404, message: 'route not found or not linked to this api key' });
    for (const call of dynamo.commandCalls(GetCommand)) expect(call.args[0].input).toMatchObject({ ConsistentRead: true });
  });
});
