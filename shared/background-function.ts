/**
 * The builder of the functions no HTTP request starts (the positions pipeline, the quiet-vehicles check, the webhook
 * router and sender), as shared/operation.ts builds the API's: the Lambda context on every log line, the X-Ray
 * segment without the result (it may hold a tenant's data), one metrics flush with the cold-start metric, and the
 * function's name on logs and traces. A batch function answers the ids of the records Lambda must retry.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger, metrics, tracer } from './telemetry.ts';
import { traceInvocation } from './tracing.ts';

/** Kinesis', DynamoDB streams' and SQS' partial batch response: the records to retry, the others are done. */
export interface BatchResponse {
  batchItemFailures: Array<{ itemIdentifier: string }>;
}

/** A function started by a schedule, a stream or a queue, under `name` in logs and traces. */
export function backgroundFunction<Event, Result>(name: string, run: (event: Event, context: Context) => Promise<Result>) {
  return middy<Event, Result>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(traceInvocation(tracer))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .before(() => {
      logger.appendKeys({ operation: name });
      tracer.putAnnotation('operation', name);
    })
    .handler(run);
}

/** A function of a batch of records: `run` answers the ids of those to retry (none: the whole batch is done). */
export function batchFunction<Event>(name: string, run: (event: Event, context: Context) => Promise<readonly string[]>) {
  return backgroundFunction<Event, BatchResponse>(name, async (event, context) => ({
    batchItemFailures: (await run(event, context)).map((itemIdentifier) => ({ itemIdentifier })),
  }));
}
