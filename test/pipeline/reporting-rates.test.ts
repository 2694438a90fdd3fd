/**
 * The demo fleet's day as phones and trackers report it (every 1, 5 or 60 s while driving, with GPS speed or
 * without), delivered in order through the whole pipeline (DynamoDB Local, the API): every vehicle's trips, fills,
 * odometer and live record are the simulator's truth (test/support/fleet-truth.ts).
 */
import { describe, it } from 'vitest';
import { demoFleetDay, interleave, reportingAt } from '../../simulator/index.ts';
import { arrivalOrders } from '../support/arrival-orders.ts';
import { anImei } from '../support/builders.ts';
import { deliverDays, expectTrueDay } from '../support/fleet-truth.ts';

const DATE = '2026-11-04';
/** Kinesis' most records in a batch */
const BATCH_SIZE = 1000;
/** a day at 1 s is about 22,000 records in 22 batches: a few minutes on a loaded machine */
const DAY_TIMEOUT_MS = 600_000;

describe('a fleet day at any reporting rate', () => {
  for (const everyS of [1, 5, 60])
    for (const withSpeed of [true, false])
      it(`has the true trips, fills and odometers of each vehicle reporting every ${everyS} s ${withSpeed ? 'with' : 'without'} speed`, {
        timeout: DAY_TIMEOUT_MS,
      }, async () => {
        // Prepare
        const days = demoFleetDay(DATE, await Promise.all([anImei(), anImei(), anImei()]), 3, reportingAt(everyS, withSpeed));

        // Act
        const delivered = await deliverDays(days, arrivalOrders.inOrder(interleave(days), BATCH_SIZE));

        // Assess
        for (const vehicle of delivered.vehicles) expectTrueDay(vehicle);
      });
});
