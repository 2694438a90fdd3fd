/**
 * The detector run hour by hour over a vehicle's points, oldest first, remembering the state before each hour's
 * first point (the checkpoints re-detection starts from). Pure: the pipeline, reprocessing and the faults report
 * all walk history this way, so they agree on what was counted and what was ignored.
 */
import type { DetectedDrop, FuelDropSettings } from '../events/fuel-drops.ts';
import { type DetectedFill, type DetectedTrip, detect, type TrackState, type VehicleProfile } from './detector.ts';
import type { IgnoredReading } from './faults.ts';
import { hourOf } from './history.ts';
import type { Position } from './position.ts';
import type { DetectionSettings } from './settings.ts';

export interface HourlyRun {
  state: TrackState;
  trips: DetectedTrip[];
  fills: DetectedFill[];
  drops: DetectedDrop[];
  ignored: IgnoredReading[];
  /** the newest point detection counted (the live record) */
  latest: Position | null;
  /** the state before each hour's first point */
  checkpoints: Array<{ hour: string; state: TrackState }>;
}

export function detectByHour(
  start: TrackState,
  points: readonly Position[],
  profile: VehicleProfile,
  settings: DetectionSettings,
  dropSettings?: FuelDropSettings,
): HourlyRun {
  const run: HourlyRun = { state: start, trips: [], fills: [], drops: [], ignored: [], latest: null, checkpoints: [] };
  for (let i = 0; i < points.length; ) {
    const hour = hourOf((points[i] as Position).gps_datetime);
    let end = i;
    while (end < points.length && hourOf((points[end] as Position).gps_datetime) === hour) end++;
    run.checkpoints.push({ hour, state: run.state });
    const detection = detect(run.state, points.slice(i, end), profile, settings, dropSettings);
    run.state = detection.state;
    run.trips.push(...detection.trips);
    run.fills.push(...detection.fills);
    run.drops.push(...detection.drops);
    run.ignored.push(...detection.ignored);
    run.latest = detection.latest ?? run.latest;
    i = end;
  }
  return run;
}
