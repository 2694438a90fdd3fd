/**
 * Scripts talk to the `npm start` stack unless told otherwise: these are its embedded defaults.
 * `--table NAME` (admin CLI) switches to AWS with the usual credential chain.
 */
export function useLocalStackDefaults(): void {
  process.env.TABLE_NAME ??= 'fleet-tracking';
  process.env.BUCKET_NAME ??= 'fleet-tracking-local';
  process.env.DYNAMODB_ENDPOINT ??= `http://127.0.0.1:${process.env.DYNAMODB_PORT ?? 8000}`;
  process.env.S3_ENDPOINT ??= `http://127.0.0.1:${process.env.S3_PORT ?? 4569}`;
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  // EMF metrics are for CloudWatch; locally they would only clutter the output.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
}

export function useAwsTable(tableName: string): void {
  process.env.TABLE_NAME = tableName;
  delete process.env.DYNAMODB_ENDPOINT;
  delete process.env.S3_ENDPOINT;
}
