/**
 * The quiet-vehicles check (docs/positions-pipeline.md, "Quiet vehicles"), run every minute by a schedule in AWS and
 * by a timer under `npm start`: each vehicle the `quiet` index says is due is declared offline once silent for its
 * offlineAfterS (device.offline), and has its open trip closed once silent longer than the gap rule, as the gap will
 * close it when a later point shows the silence. A point that arrives later is handled by re-detection as any other.
 */
import { emitAll } from '../domain/events/detection-events.ts';
import { offlineEvent, quietDecision } from '../domain/events/quiet-events.ts';
import { eventSettings } from '../domain/events/settings.ts';
import { detectionSettings } from '../domain/tracking/settings.ts';
import { logger } from '../logger.ts';
import { findVehiclesDue, recordOffline, rescheduleQuietCheck } from '../store/quiet-vehicles.ts';
import { findTrackedVehiclesByUid, type TrackedVehicle } from '../store/tracks.ts';
import { PlaceNamer } from './place-namer.ts';
import { trackVehicle } from './track-vehicle.ts';

export interface QuietCheckOutcome {
  /** vehicles the index named as due */
  due: number;
  /** declared offline */
  offline: number;
  /** open trips closed */
  tripsClosed: number;
  /** vehicles a point reached while they were checked: left for the next check */
  skipped: number;
}

/** Vehicles checked at once: each may re-detect its last hour. */
const CONCURRENT_VEHICLES = 8;

export async function checkQuietVehicles(now: Date = new Date()): Promise<QuietCheckOutcome> {
  const due = await findVehiclesDue(now.toISOString());
  const outcome: QuietCheckOutcome = { due: due.length, offline: 0, tripsClosed: 0, skipped: 0 };
  const namer = new PlaceNamer();
  for (let i = 0; i < due.length; i += CONCURRENT_VEHICLES) {
    const tracked = await findTrackedVehiclesByUid(due.slice(i, i + CONCURRENT_VEHICLES));
    await Promise.all([...tracked.values()].map((vehicle) => checkVehicle(vehicle, now, namer, outcome)));
  }
  if (outcome.due > 0) logger.info('quiet vehicles checked', { ...outcome });
  return outcome;
}

async function checkVehicle(tracked: TrackedVehicle, now: Date, namer: PlaceNamer, outcome: QuietCheckOutcome): Promise<void> {
  const { vehicle, quiet, live } = tracked;
  const takenAt = quiet.takenAt;
  if (takenAt === null) return;
  const rules = { offlineAfterS: eventSettings(vehicle).offlineAfterS, maxGapS: detectionSettings(vehicle.detection).maxGapS };
  const tripClosedBefore = quiet.tripClosedFor === takenAt;
  const decision = quietDecision({ takenAt, offline: quiet.offlineAt !== null, tripClosed: tripClosedBefore }, rules, now);
  if (decision.goOffline) {
    // `now` decides what is due (a test sets it); the event is stamped when it is really emitted
    const emitted = emitAll(vehicle, [offlineEvent(takenAt, decision.offlineAt, live)], tracked.emission, new Date());
    const silence = { takenAt, offlineAt: decision.offlineAt };
    if (!(await recordOffline(vehicle.vehicleUid, silence, emitted.events, { previous: tracked.emission, next: emitted.state }))) {
      outcome.skipped++;
      return;
    }
    outcome.offline++;
  }
  if (decision.closeTrip && live) {
    // read again: the offline event just moved the emission on, and a point may have arrived since
    const current = (await findTrackedVehiclesByUid([vehicle.vehicleUid])).get(vehicle.imei);
    if (current?.quiet.takenAt !== takenAt) {
      outcome.skipped++;
      return;
    }
    const closed = await trackVehicle(current, [], {
      receivedAt: new Date(live.lastResponse),
      namer,
      reprocessFrom: live.gpsDatetime,
      closeSilentTrip: true,
    });
    outcome.tripsClosed += closed.trips;
  }
  const seen = { takenAt, due: quiet.due };
  if (!(await rescheduleQuietCheck(vehicle.vehicleUid, seen, decision.nextCheck, tripClosedBefore || decision.closeTrip)))
    outcome.skipped++;
}
