/**
 * One vehicle's batch as a plan (docs/positions-pipeline.md): given what was read — the checkpoint's state, the
 * stored history since it, the tail on the track item — and the points that arrived, what to detect, which
 * checkpoints and history to write, what the tail becomes, which point the live record shows and which faults the
 * batch brought. Pure: shared/pipeline/track-vehicle.ts reads before it and writes after it.
 */
import { dropSpanStart, type FuelDropSettings } from '../events/fuel-drops.ts';
import type { TrackState, VehicleProfile } from './detector.ts';
import { earliestOfEachSecond, type Fault, secondOf } from './faults.ts';
import { byTime, chunksOf, encodePoints, hourOf, type PositionChunk } from './history.ts';
import { detectByHour, type HourlyRun } from './hourly-run.ts';
import type { Position } from './position.ts';
import type { DetectionSettings } from './settings.ts';

/**
 * The most of the tail's encoding kept on the track item: with the live record (about 400 bytes) it stays
 * within 1 KB, so a batch's write costs one WCU; about 6 to 10 points at 30 s reporting.
 */
const MAX_TAIL_CHARS = 560;

/** What the pipeline read for a vehicle's batch. */
export interface VehicleHistory {
  /** the state detection starts from, and the hour of the checkpoint it came from (none: the vehicle's start) */
  start: TrackState;
  checkpointHour: string | undefined;
  /** stored points from that hour on */
  stored: readonly Position[];
  /** the newest points, kept on the track item */
  tail: readonly Position[];
  /** whether the track item holds a tail now */
  hasStoredTail: boolean;
}

export interface DetectionPlan {
  /** the points not in the history yet */
  fresh: Position[];
  /** the history re-detection walks, oldest first: before the fresh points joined it (known) and after (points) */
  known: Position[];
  points: Position[];
  run: HourlyRun;
  /** the checkpoints to (re)write: from the hour of the earliest fresh point on */
  checkpoints: HourlyRun['checkpoints'];
  /** the tail to keep on the track item (null: it moves into `chunks`), and whether the track item's tail changes */
  tail: { hour: string; points: string } | null;
  chunks: PositionChunk[];
  tailChanged: boolean;
  /** the newest point detection counted: what the live record shows */
  newest: Position;
  /** faults decided by this batch's points, per class (a fuel dropout when its return arrives) */
  faults: Partial<Record<Fault, number>>;
}

/** Where re-detection starts: the checkpoint's hour, or the beginning. */
export const historyFrom = (checkpointHour: string | undefined): string => checkpointHour ?? '0000';

/**
 * Where the trips and fills found after a checkpoint may begin: a trip open at the checkpoint, or about to open
 * from a stop or an ignition that came on before it; a fill rising, or a fuel drop falling, from a level read before it.
 */
export function replacedSpan(state: TrackState, from: string): { trips: string; fills: string; drops: string } {
  const earliest = (...instants: Array<string | undefined>) => instants.filter((at): at is string => at !== undefined).sort()[0] as string;
  return {
    trips: earliest(from, state.trip?.start.at, state.stop?.at, state.ignitionOnAt?.at),
    fills: earliest(from, state.parked?.before.at, state.parked?.rise?.before.at),
    drops: earliest(from, dropSpanStart(state.fuelDrop)),
  };
}

/** The history re-detection walks before any new point joins it: the stored points and the tail from the checkpoint on, oldest first. */
export const knownPoints = (history: VehicleHistory): Position[] =>
  byTime([...history.stored, ...history.tail.filter((position) => position.gps_datetime >= historyFrom(history.checkpointHour))]);

/**
 * The plan for the arrived points (oldest first, one per instant), or undefined when there is nothing to do:
 * no new point (a replay), or nothing stored to reprocess. `reprocessFrom` re-detects from that instant without new points.
 */
export function planDetection(
  history: VehicleHistory,
  arrived: readonly Position[],
  profile: VehicleProfile,
  settings: DetectionSettings,
  reprocessFrom?: string,
  dropSettings?: FuelDropSettings,
): DetectionPlan | undefined {
  const from = historyFrom(history.checkpointHour);
  const known = [...history.stored, ...history.tail.filter((position) => position.gps_datetime >= from)];
  // a point earlier in its second than the stored one takes its place (the history is read earliest first)
  const stored = earliestOfEachSecond([...known, ...history.tail]);
  const isFresh = (position: Position) => {
    const first = stored.get(secondOf(position.gps_datetime));
    return first === undefined || position.gps_datetime < first.gps_datetime;
  };
  const fresh = byTime(arrived.filter(isFresh));
  if (fresh.length === 0 && reprocessFrom === undefined) return undefined;
  const points = byTime([...known, ...fresh]);
  if (points.length === 0) return undefined;

  const run = detectByHour(history.start, points, profile, settings, dropSettings);
  const rewriteFrom = hourOf(reprocessFrom ?? (fresh[0] as Position).gps_datetime);
  const checkpoints = run.checkpoints.filter(({ hour }) => hour !== history.checkpointHour && hour >= rewriteFrom);

  const freshAt = new Set(fresh.map((position) => position.gps_datetime));
  const faults: DetectionPlan['faults'] = {};
  for (const { fault, decidedAt } of run.ignored) if (freshAt.has(decidedAt)) faults[fault] = (faults[fault] ?? 0) + 1;

  // The new points join the tail on the track item; a tail that outgrows it moves into chunks first.
  const newTail = byTime([...history.tail, ...fresh]);
  const tailHour = newTail[0] ? hourOf(newTail[0].gps_datetime) : undefined;
  const tailPoints = tailHour ? encodePoints(tailHour, newTail) : '';
  const flush = tailPoints.length > MAX_TAIL_CHARS;
  const tail = tailHour && !flush ? { hour: tailHour, points: tailPoints } : null;
  return {
    fresh,
    known: knownPoints(history),
    points,
    run,
    checkpoints,
    tail,
    chunks: flush ? chunksOf(newTail) : [],
    tailChanged: fresh.length > 0 && (tail !== null || history.hasStoredTail),
    // a bad fix stays in the history only
    newest: run.latest ?? (points.at(-1) as Position),
    faults,
  };
}
