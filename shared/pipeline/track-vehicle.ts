/**
 * One vehicle's detection, whatever order its points arrive in (docs/positions-pipeline.md): the new points join
 * the stored history, detection re-runs from the checkpoint before the earliest of them through the whole
 * history, and the trips and fills found after the checkpoint replace the stored ones, keeping their identities.
 * In-order data re-runs at most the current hour; a replayed batch finds no new point and writes nothing.
 */

import type { FuelFill } from '../domain/fuel-fill.ts';
import { secondsBetween } from '../domain/time.ts';
import {
  type DetectedFill,
  type DetectedTrip,
  detect,
  initialTrackState,
  type TrackState,
  type VehicleProfile,
} from '../domain/tracking/detector.ts';
import { byTime, chunksOf, encodePoints, hourOf } from '../domain/tracking/history.ts';
import type { Position } from '../domain/tracking/position.ts';
import { type DetectionSettings, detectionSettings } from '../domain/tracking/settings.ts';
import type { Trip } from '../domain/trip.ts';
import type { LiveState, Vehicle } from '../domain/vehicle.ts';
import { logger } from '../logger.ts';
import { nextIds } from '../store/counters.ts';
import { listFuelFills } from '../store/fuel-fills.ts';
import { type Checkpoint, checkpointItem, chunkItem, findCheckpoint, putAll, readPositions } from '../store/positions.ts';
import { commitDetection, type DetectionCommit, saveTrack, type TrackedVehicle, type TrackUpdate } from '../store/tracks.ts';
import { listTrips } from '../store/trips.ts';
import { liveRecordEntity } from '../store/vehicles.ts';
import type { PlaceNamer } from './place-namer.ts';

export interface VehicleOutcome {
  /** trips and fills created (not re-detected ones that kept their identity) */
  trips: number;
  fills: number;
  /** stored trips and fills whose figures or times changed, or that re-detection no longer finds */
  changed: number;
  removed: number;
  /** fills no longer detected but kept because a slip is linked to them */
  keptForSlip: number;
  writeRequests: number;
}

export interface TrackOptions {
  receivedAt: Date;
  namer: PlaceNamer;
  /** re-detect from this instant even without new points (npm run admin -- reprocess) */
  reprocessFrom?: string;
}

const END = '9999';

/**
 * The most of the tail's encoding kept on the track item: with the live record (about 400 bytes) it stays
 * within 1 KB, so a batch's write costs one WCU; about 6 to 10 points at 30 s reporting.
 */
const MAX_TAIL_CHARS = 560;

export async function trackVehicle(
  { vehicle, live, tail, storedTail, legacyState }: TrackedVehicle,
  incoming: readonly Position[],
  options: TrackOptions,
): Promise<VehicleOutcome> {
  const outcome: VehicleOutcome = { trips: 0, fills: 0, changed: 0, removed: 0, keptForSlip: 0, writeRequests: 0 };
  const arrived = byTime(incoming);
  const earliest = options.reprocessFrom ?? arrived[0]?.gps_datetime;
  if (earliest === undefined) return outcome;
  const profile = profileOf(vehicle);
  const settings = detectionSettings(vehicle.detection);

  const checkpoint = await findCheckpoint(vehicle.vehicleUid, hourOf(earliest));
  const start = checkpoint?.state ?? legacyState ?? initialTrackState(profile);
  const from = checkpoint?.hour ?? '0000';
  const span = replacedSpan(start, from);
  const [stored, storedTrips, storedFills] = await Promise.all([
    readPositions(vehicle.vehicleUid, vehicle.imei, from),
    listTrips(vehicle.vehicleUid, [span.trips, start.lastTripStart ?? END].sort()[0] as string, END),
    listFuelFills(vehicle.vehicleUid, span.fills, END),
  ]);
  const history = [...stored, ...tail.filter((position) => position.gps_datetime >= from)];
  const storedAt = new Set([...history, ...tail].map((position) => position.gps_datetime));
  const fresh = arrived.filter((position) => !storedAt.has(position.gps_datetime));
  if (fresh.length === 0 && options.reprocessFrom === undefined) return outcome;

  const points = byTime([...history, ...fresh]);
  // reprocessing a vehicle that never reported: nothing to detect
  if (points.length === 0) return outcome;
  const run = detectByHour(start, points, profile, settings);
  const rewriteFrom = hourOf(options.reprocessFrom ?? (fresh[0] as Position).gps_datetime);
  const checkpoints = run.checkpoints.filter(({ hour }) => hour !== checkpoint?.hour && hour >= rewriteFrom);

  const tripUidByStart = new Map(storedTrips.map((trip) => [trip.startTime, trip.tripUid]));
  const trips = await replaceTrips(
    vehicle,
    storedTrips.filter((trip) => trip.startTime >= span.trips),
    run.trips,
    settings,
    options.namer,
  );
  for (const trip of [...trips.newTrips, ...trips.changedTrips.map(({ trip }) => trip)]) tripUidByStart.set(trip.startTime, trip.tripUid);
  const fills = await replaceFills(vehicle, storedFills, run.fills, tripUidByStart, settings, options.namer);

  const newest = points.at(-1) as Position;
  const liveNow = liveStateOf(newest, run.state, vehicle, options.receivedAt);
  const liveChanged = (live === undefined || live.gpsDatetime <= newest.gps_datetime) && !sameLive(live, liveNow);
  // The new points join the tail on the track item; a tail that outgrows it moves into chunks first.
  const newTail = byTime([...tail, ...fresh]);
  const tailHour = newTail[0] ? hourOf(newTail[0].gps_datetime) : undefined;
  const tailPoints = tailHour ? encodePoints(tailHour, newTail) : '';
  const flush = tailPoints.length > MAX_TAIL_CHARS;
  const keptTail = tailHour && !flush ? { hour: tailHour, points: tailPoints } : null;
  const tailChanged = fresh.length > 0 && (keptTail !== null || storedTail !== undefined);
  const track: TrackUpdate | undefined =
    liveChanged || tailChanged ? { live: liveChanged ? liveNow : undefined, tail: keptTail, previousTail: storedTail } : undefined;
  const commit: DetectionCommit = { vehicleUid: vehicle.vehicleUid, track, ...trips, ...fills };

  // Checkpoints and chunks first, then the track item (the new points, the live record), with the trips and fills
  // when they changed: a batch that fails half-way finds its points still new when retried.
  outcome.writeRequests += await putAll([
    ...checkpoints.map((item) => checkpointItem(vehicle.vehicleUid, item)),
    ...(flush ? chunksOf(newTail).map((chunk) => chunkItem(vehicle.vehicleUid, chunk)) : []),
  ]);
  const found =
    trips.newTrips.length +
    trips.changedTrips.length +
    trips.removedTrips.length +
    fills.newFills.length +
    fills.changedFills.length +
    fills.removedFills.length;
  if (found > 0) outcome.writeRequests += await commitDetection(commit);
  else if (track) outcome.writeRequests += await saveTrack(vehicle.vehicleUid, track);

  outcome.trips = trips.newTrips.length;
  outcome.fills = fills.newFills.length;
  outcome.changed = trips.changedTrips.length + fills.changedFills.length;
  outcome.removed = trips.removedTrips.length + fills.removedFills.length;
  outcome.keptForSlip = fills.keptForSlip.length;
  if (fills.keptForSlip.length > 0) {
    logger.warn('re-detection no longer finds fills that have slips; they are kept', {
      vehicleUid: vehicle.vehicleUid,
      eventUids: fills.keptForSlip,
    });
  }
  return outcome;
}

/**
 * Where the trips and fills found after a checkpoint may begin: a trip open at the checkpoint, or about to open
 * from a stop or an ignition that came on before it; a fill rising from a level read before it.
 */
function replacedSpan(state: TrackState, from: string): { trips: string; fills: string } {
  const earliest = (...instants: Array<string | undefined>) => instants.filter((at): at is string => at !== undefined).sort()[0] as string;
  return {
    trips: earliest(from, state.trip?.start.at, state.stop?.at, state.ignitionOnAt?.at),
    fills: earliest(from, state.parked?.before.at, state.parked?.rise?.before.at),
  };
}

interface HourlyRun {
  state: TrackState;
  trips: DetectedTrip[];
  fills: DetectedFill[];
  /** the state before each hour's first point */
  checkpoints: Checkpoint[];
}

function detectByHour(start: TrackState, points: readonly Position[], profile: VehicleProfile, settings: DetectionSettings): HourlyRun {
  const run: HourlyRun = { state: start, trips: [], fills: [], checkpoints: [] };
  for (let i = 0; i < points.length; ) {
    const hour = hourOf((points[i] as Position).gps_datetime);
    let end = i;
    while (end < points.length && hourOf((points[end] as Position).gps_datetime) === hour) end++;
    run.checkpoints.push({ hour, state: run.state });
    const detection = detect(run.state, points.slice(i, end), profile, settings);
    run.state = detection.state;
    run.trips.push(...detection.trips);
    run.fills.push(...detection.fills);
    i = end;
  }
  return run;
}

const seconds = (from: string, to: string): number => Math.abs(secondsBetween(from, to));

/** Pairs each found item with the nearest unpaired stored one within the tolerance. */
function pair<Found, Stored>(
  found: readonly Found[],
  stored: readonly Stored[],
  foundAt: (item: Found) => string,
  storedAt: (item: Stored) => string,
  toleranceS: number,
) {
  const unpaired = new Set(stored);
  const pairs = found.map((item) => {
    let best: Stored | undefined;
    for (const candidate of unpaired) {
      const distance = seconds(foundAt(item), storedAt(candidate));
      if (distance <= toleranceS && (best === undefined || distance < seconds(foundAt(item), storedAt(best)))) best = candidate;
    }
    if (best !== undefined) unpaired.delete(best);
    return { found: item, stored: best };
  });
  return { pairs, unpaired: [...unpaired] };
}

const TRIP_FIELDS = [
  'startTime',
  'stopTime',
  'odometerAtStart',
  'distanceKm',
  'durationS',
  'maxSpeed',
  'fuelStart',
  'fuelEnd',
  'startLat',
  'startLng',
  'stopLat',
  'stopLng',
  'driverTagId',
] as const;

async function replaceTrips(
  vehicle: Vehicle,
  stored: readonly Trip[],
  found: readonly DetectedTrip[],
  settings: DetectionSettings,
  namer: PlaceNamer,
) {
  const { pairs, unpaired } = pair(
    found,
    stored,
    (trip) => trip.startTime,
    (trip) => trip.startTime,
    settings.fillMergeS,
  );
  const fresh = pairs.filter(({ stored }) => stored === undefined);
  const uids = await nextIds('trip', fresh.length);
  const changed = pairs.filter(({ found, stored }) => stored !== undefined && TRIP_FIELDS.some((field) => found[field] !== stored[field]));
  return {
    newTrips: await Promise.all(fresh.map(({ found }, n) => namedTrip(vehicle, found, uids[n] as number, namer))),
    changedTrips: await Promise.all(
      changed.map(async ({ found, stored }) => ({
        trip: await namedTrip(vehicle, found, (stored as Trip).tripUid, namer),
        previousStart: (stored as Trip).startTime,
      })),
    ),
    removedTrips: unpaired.map(({ startTime, tripUid }) => ({ startTime, tripUid })),
  };
}

const FILL_FIELDS = [
  'at',
  'latitude',
  'longitude',
  'levelBefore',
  'levelAfter',
  'fillQty',
  'odometerKm',
  'engineHours',
  'tripUid',
  'distanceKm',
  'durationS',
  'fuelUsed',
] as const;

async function replaceFills(
  vehicle: Vehicle,
  stored: readonly FuelFill[],
  found: readonly DetectedFill[],
  tripUidByStart: Map<string, number>,
  settings: DetectionSettings,
  namer: PlaceNamer,
) {
  const { pairs, unpaired } = pair(
    found,
    stored,
    (fill) => fill.at,
    (fill) => fill.at,
    settings.fillMergeS,
  );
  const fresh = pairs.filter(({ stored }) => stored === undefined);
  const uids = await nextIds('fuel-fill', fresh.length);
  const named = await Promise.all(
    pairs.map(async ({ found, stored }) => {
      const measured = measuredFill(vehicle, found, tripUidByStart);
      if (stored && FILL_FIELDS.every((field) => measured[field] === stored[field])) return { stored, fill: undefined };
      const eventUid = stored?.eventUid ?? (uids[fresh.findIndex((entry) => entry.found === found)] as number);
      return { stored, fill: await namedFill(vehicle, found, measured, eventUid, stored?.slipUid ?? null, namer) };
    }),
  );
  return {
    newFills: named.flatMap(({ stored, fill }) => (fill && !stored ? [fill] : [])),
    changedFills: named.flatMap(({ stored, fill }) => (fill && stored ? [fill] : [])),
    removedFills: unpaired.filter((fill) => fill.slipUid === null).map((fill) => fill.eventUid),
    keptForSlip: unpaired.filter((fill) => fill.slipUid !== null).map((fill) => fill.eventUid),
  };
}

function profileOf(vehicle: Vehicle): VehicleProfile {
  return {
    odometerAtStartKm: vehicle.odometerAtStart ?? 0,
    startHours: vehicle.startHours,
    fuelCapacity: vehicle.fuelCapacity,
    fuelFactor: vehicle.fuelFactor,
  };
}

function liveStateOf(position: Position, state: TrackState, vehicle: Vehicle, receivedAt: Date): LiveState {
  return {
    lastResponse: receivedAt.toISOString(),
    gpsDatetime: position.gps_datetime,
    latitude: position.latitude,
    longitude: position.longitude,
    speed: position.speed,
    heading: position.heading,
    driverId: position.driver_tag_id,
    suppVolt: position.supp_volt,
    intBattVolt: position.int_batt_volt,
    intTemp: position.int_temp,
    extTemp: position.ext_temp,
    fuelValue: position.fuel_raw === null ? null : position.fuel_raw * vehicle.fuelFactor,
    deviceType: position.device_type,
    config: position.config,
    odometerKm: state.odometerKm,
    engineHours: state.engineHours,
  };
}

/** Equal but for when it was received: a late batch that changes nothing of the newest point leaves the record alone. */
function sameLive(stored: LiveState | undefined, next: LiveState): boolean {
  if (!stored) return false;
  const { last_response: _stored, ...before } = liveRecordEntity.toItem(stored);
  const { last_response: _next, ...after } = liveRecordEntity.toItem(next);
  return JSON.stringify(before) === JSON.stringify(after);
}

async function namedTrip(vehicle: Vehicle, trip: DetectedTrip, tripUid: number, namer: PlaceNamer): Promise<Trip> {
  const [startLocation, stopLocation, driver] = await Promise.all([
    namer.placeName(vehicle.vehicleUid, { lat: trip.startLat, lng: trip.startLng }),
    namer.placeName(vehicle.vehicleUid, { lat: trip.stopLat, lng: trip.stopLng }),
    namer.driver(vehicle.vehicleUid, trip.driverTagId),
  ]);
  return { ...trip, tripUid, vehicleUid: vehicle.vehicleUid, startLocation, stopLocation, driverName: driver?.fullname ?? null };
}

/** The fill's figures as stored, before naming: what decides whether a stored fill changed. */
function measuredFill(vehicle: Vehicle, fill: DetectedFill, tripUidByStart: Map<string, number>) {
  const { driverTagId: _tag, precedingTripStart, sincePreviousFill, ...measured } = fill;
  return {
    ...measured,
    vehicleUid: vehicle.vehicleUid,
    tripUid: precedingTripStart ? (tripUidByStart.get(precedingTripStart) ?? null) : null,
    distanceKm: sincePreviousFill?.distanceKm ?? null,
    durationS: sincePreviousFill?.durationS ?? null,
    fuelUsed: sincePreviousFill?.fuelUsed ?? null,
  };
}

async function namedFill(
  vehicle: Vehicle,
  fill: DetectedFill,
  measured: ReturnType<typeof measuredFill>,
  eventUid: number,
  slipUid: number | null,
  namer: PlaceNamer,
): Promise<FuelFill> {
  const [location, driver] = await Promise.all([
    namer.placeName(vehicle.vehicleUid, { lat: fill.latitude, lng: fill.longitude }),
    namer.driver(vehicle.vehicleUid, fill.driverTagId),
  ]);
  return { ...measured, eventUid, location, operatorUid: driver?.operatorUid ?? null, operatorName: driver?.fullname ?? null, slipUid };
}
