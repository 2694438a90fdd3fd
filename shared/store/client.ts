import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClientTimeouts, config } from '../config.ts';
import { tracer } from '../telemetry.ts';

let documentClient: DynamoDBDocumentClient | undefined;

/** Created on first use, never at module init; DYNAMODB_ENDPOINT points it at DynamoDB Local. */
export function dynamo(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = config.dynamodbEndpoint();
    const client = new DynamoDBClient({
      ...awsClientTimeouts(),
      ...(endpoint ? { endpoint, region: config.region('local'), credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    });
    documentClient = DynamoDBDocumentClient.from(tracer.captureAWSv3Client(client), { marshallOptions: { removeUndefinedValues: true } });
  }
  return documentClient;
}

export const tableName = config.tableName;
