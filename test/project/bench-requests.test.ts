/**
 * How the operations and bundles benches send a call's DynamoDB requests again (scripts/bench/sdk-requests.ts): a request
 * the document client sent is known as one, and its answer is made plain values as the document client made it for the
 * service, so that work counts as the SDK's in "same requests via SDK".
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { type DynamoAnswer, documentClientMark, unmarshallAsDocumentClient } from '../../scripts/bench/sdk-requests.ts';
import { config } from '../../shared/config.ts';
import { tableName } from '../../shared/store/client.ts';

/** A document client of its own (the service's is shared by the worker's files), and the marks its requests got. */
function markedDocumentClient() {
  const client = new DynamoDBClient({
    endpoint: config.dynamodbEndpoint(),
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const marks: Array<{ document?: true }> = [];
  client.middlewareStack.add(
    (next, context) => (args) => {
      marks.push(documentClientMark(context));
      return next(args);
    },
    { step: 'build', name: 'testDocumentMark' },
  );
  return { documents: DynamoDBDocumentClient.from(client), marks };
}

const missingKey = { pk: 'TEST#bench-requests', sk: 'none' };

describe('documentClientMark', () => {
  it('marks a request the document client sent', async () => {
    // Prepare
    const { documents, marks } = markedDocumentClient();
    // Act
    await documents.send(new GetCommand({ TableName: tableName(), Key: missingKey }));
    // Assess
    expect(marks).toEqual([{ document: true }]);
  });

  it("leaves a request sent with the DynamoDB client's own command unmarked", async () => {
    // Prepare
    const { documents, marks } = markedDocumentClient();
    // Act
    await documents.send(new GetItemCommand({ TableName: tableName(), Key: { pk: { S: missingKey.pk }, sk: { S: missingKey.sk } } }));
    // Assess
    expect(marks).toEqual([{}]);
  });
});

describe('unmarshallAsDocumentClient', () => {
  const item = (n: number) => ({ pk: { S: `p${n}` }, n: { N: String(n) } });

  it.each<[string, DynamoAnswer, number[]]>([
    ['a Query', { Items: [item(1), item(2)], LastEvaluatedKey: item(3) }, [3, 1, 2]],
    ['a GetItem', { Item: item(1) }, [1]],
    ['an update that returns its values', { Attributes: item(4) }, [4]],
    ['a BatchGetItem', { Responses: { table: [item(5), item(6)] } }, [5, 6]],
    ['a TransactGetItems', { Responses: [{ Item: item(7) }, {}] }, [7]],
  ])("makes every item of %s plain values, as the service's answer was", (_answer, answer, numbers) => {
    // Prepare
    const made: unknown[] = [];
    // Act
    unmarshallAsDocumentClient(answer, (marshalled) => made.push(unmarshall(marshalled as never)));
    // Assess
    expect(made).toEqual(numbers.map((n) => ({ pk: `p${n}`, n })));
  });
});
