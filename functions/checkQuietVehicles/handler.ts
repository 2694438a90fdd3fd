import type { ScheduledEvent } from 'aws-lambda';
import { backgroundFunction } from '../../shared/background-function.ts';
import { checkQuietVehicles, type QuietCheckOutcome } from '../../shared/pipeline/quiet-vehicles.ts';

/**
 * The EventBridge schedule → the quiet-vehicles check (docs/positions-pipeline.md, "Quiet vehicles"). A failed run is
 * simply the next minute's work: every decision is conditioned on what it read, and what stays due is found again.
 */
async function checkQuietVehiclesOnSchedule(event: ScheduledEvent): Promise<QuietCheckOutcome> {
  // the schedule's own time: a retried invocation decides as the first one would
  return checkQuietVehicles(new Date(event.time));
}

export const handler = backgroundFunction('checkQuietVehicles', checkQuietVehiclesOnSchedule);
