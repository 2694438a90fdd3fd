import { inject } from 'vitest';
import './matchers.ts';

// Builders write through the store, which finds DynamoDB Local through the same variables as the handlers.
Object.assign(process.env, {
  DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
  S3_ENDPOINT: inject('s3Endpoint'),
  TABLE_NAME: inject('tableName'),
  BUCKET_NAME: inject('bucketName'),
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  // An emulator a test starts enforces the same policies and records its calls with the others (local/iam/).
  LOCAL_IAM_POLICIES: inject('iamPoliciesFile'),
  LOCAL_IAM_CALLS_DIR: inject('iamCallsDir'),
});
