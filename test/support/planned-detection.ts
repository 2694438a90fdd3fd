/**
 * Detection through the pipeline's own path, without DynamoDB: each batch is planned by planDetection
 * (shared/domain/tracking/plan.ts) from the latest checkpoint at or before its earliest point, the history since
 * and the tail, and what the plan writes (checkpoints, chunks, the tail, the trips found after the replaced span)
 * is kept as shared/pipeline/track-vehicle.ts keeps it. Checkpoints go through JSON, as an item does.
 */
import type { DetectedTrip, TrackState, VehicleProfile } from '../../shared/domain/tracking/detector.ts';
import { initialTrackState } from '../../shared/domain/tracking/detector.ts';
import { sameSecondFaults } from '../../shared/domain/tracking/faults.ts';
import { byTime, decodeChunk, hourOf } from '../../shared/domain/tracking/history.ts';
import { historyFrom, planDetection, replacedSpan } from '../../shared/domain/tracking/plan.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import type { DetectionSettings } from '../../shared/domain/tracking/settings.ts';

export interface PlannedDetection {
  /** the stored trips, by start */
  trips: DetectedTrip[];
  /** the odometer after the newest point */
  odometerKm: number;
  state: TrackState;
}

/** Every batch in turn, as the pipeline takes them (arrival order within a batch does not matter to it). */
export function detectThroughPlans(
  batches: ReadonlyArray<readonly Position[]>,
  profile: VehicleProfile,
  settings: DetectionSettings,
): PlannedDetection {
  const checkpoints = new Map<string, string>();
  const chunks = new Map<string, Position[]>();
  let tail: Position[] = [];
  let trips: DetectedTrip[] = [];
  let newest: TrackState = initialTrackState(profile);
  let newestAt = '';
  for (const batch of batches) {
    if (batch.length === 0) continue;
    const earliest = byTime(batch)[0] as Position;
    const hour = [...checkpoints.keys()]
      .filter((at) => at <= hourOf(earliest.gps_datetime))
      .sort()
      .at(-1);
    const start = hour ? (JSON.parse(checkpoints.get(hour) as string) as TrackState) : initialTrackState(profile);
    const from = historyFrom(hour);
    const stored = [...chunks.entries()].filter(([chunkHour]) => chunkHour >= from).flatMap(([, points]) => points);
    const { kept } = sameSecondFaults([...stored, ...tail], byTime(batch));
    const plan = planDetection({ start, checkpointHour: hour, stored, tail, hasStoredTail: tail.length > 0 }, kept, profile, settings);
    if (!plan) continue;
    for (const checkpoint of plan.checkpoints) checkpoints.set(checkpoint.hour, JSON.stringify(checkpoint.state));
    for (const chunk of plan.chunks)
      chunks.set(chunk.hour, byTime([...(chunks.get(chunk.hour) ?? []), ...decodeChunk(earliest.imei, chunk.hour, chunk.encoded)]));
    tail = plan.tail ? byTime([...tail, ...plan.fresh]) : [];
    const span = replacedSpan(start, from).trips;
    trips = [...trips.filter((trip) => trip.startTime < span), ...plan.run.trips].sort((a, b) => a.startTime.localeCompare(b.startTime));
    if (plan.newest.gps_datetime >= newestAt) {
      newestAt = plan.newest.gps_datetime;
      newest = plan.run.state;
    }
  }
  return { trips, odometerKm: newest.odometerKm, state: newest };
}
