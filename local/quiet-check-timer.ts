/**
 * Under `npm start`, the EventBridge schedule of the quiet-vehicles check is a timer: every OFFLINE_CHECK_INTERVAL_S
 * seconds (60 by default, as the schedule's minute) it calls the same handler the schedule invokes in AWS, one run at
 * a time (docs/positions-pipeline.md, "Quiet vehicles").
 */
import type { ScheduledEvent } from 'aws-lambda';
import { handlerPath, scheduledFunctions } from '../functions/registry.ts';
import { logger } from '../shared/logger.ts';
import { runAs } from './iam/enforcement.ts';

type ScheduledHandler = (event: ScheduledEvent, context: object) => Promise<unknown>;

export function startQuietCheckTimer(intervalS: number): { stop(): void } {
  const [scheduled] = scheduledFunctions;
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const { handler } = (await import(new URL(`../${handlerPath(scheduled.name)}`, import.meta.url).href)) as {
        handler: ScheduledHandler;
      };
      const context = { functionName: scheduled.name, awsRequestId: `local-${Date.now()}` };
      await runAs(handlerPath(scheduled.name), () => handler(scheduledEvent(scheduled.name), context));
    } catch (error) {
      logger.error('the quiet-vehicles check failed; the next run tries again', { error: error as Error });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), intervalS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function scheduledEvent(name: string): ScheduledEvent {
  return {
    version: '0',
    id: crypto.randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    region: 'local',
    resources: [`arn:aws:events:local:000000000000:rule/${name}`],
    detail: {},
  };
}
