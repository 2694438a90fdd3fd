import './matchers.ts';
import { leaveTheWorkerAsFound } from './shared-worker.ts';

// Unit tests reach no database: an endpoint nothing listens on on the loopback makes a stray store call fail at once, offline.
Object.assign(process.env, {
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
  S3_ENDPOINT: 'http://127.0.0.1:9',
  TABLE_NAME: 'fleet-tracking-unit',
  BUCKET_NAME: 'fleet-tracking-unit',
  // As in the integration project: keys are read on every request, and the per-key limit has its own test.
  API_KEY_CACHE_SECONDS: '0',
  RATE_LIMIT_PER_SECOND: '0',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
});

leaveTheWorkerAsFound();
