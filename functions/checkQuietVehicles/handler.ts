import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { ScheduledEvent } from 'aws-lambda';
import { checkQuietVehicles, type QuietCheckOutcome } from '../../shared/pipeline/quiet-vehicles.ts';
import { logger, metrics, tracer } from '../../shared/telemetry.ts';

/**
 * The EventBridge schedule → the quiet-vehicles check (docs/positions-pipeline.md, "Quiet vehicles"). A failed run is
 * simply the next minute's work: every decision is conditioned on what it read, and what stays due is found again.
 */
async function checkQuietVehiclesOnSchedule(event: ScheduledEvent): Promise<QuietCheckOutcome> {
  logger.appendKeys({ operation: 'checkQuietVehicles' });
  tracer.putAnnotation('operation', 'checkQuietVehicles');
  // the schedule's own time: a retried invocation decides as the first one would
  return checkQuietVehicles(new Date(event.time));
}

/** The same Powertools wiring as the pipeline's handler. */
export const handler = middy<ScheduledEvent, QuietCheckOutcome>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(logMetrics(metrics, { captureColdStartMetric: true }))
  .handler(checkQuietVehiclesOnSchedule);
