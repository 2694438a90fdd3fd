/**
 * One vehicle's detection, whatever order its points arrive in (docs/positions-pipeline.md): the new points join
 * the stored history, detection re-runs from the checkpoint before the earliest of them through the whole
 * history, and the trips and fills found after the checkpoint replace the stored ones, keeping their identities.
 * In-order data re-runs at most the current hour; a replayed batch finds no new point and writes nothing.
 */

import { changedFacts, emitAll, fillEvents, tripEvents } from '../domain/events/detection-events.ts';
import { eventIdOf } from '../domain/events/event.ts';
import { type DetectedDrop, dropEvents } from '../domain/events/fuel-drops.ts';
import { onlineEvent } from '../domain/events/quiet-events.ts';
import { type EventSettings, eventSettings } from '../domain/events/settings.ts';
import { initialZoneState, type UserZones, walkZones, type ZoneChange, zoneChanges, zoneSettingsOf } from '../domain/events/zone-events.ts';
import type { FuelFill } from '../domain/fuel-fill.ts';
import { secondsBetween } from '../domain/time.ts';
import {
  type DetectedFill,
  type DetectedTrip,
  endSilentTrip,
  initialTrackState,
  type TrackState,
  type VehicleProfile,
} from '../domain/tracking/detector.ts';
import { type Fault, sameSecondFaults } from '../domain/tracking/faults.ts';
import { hourOf } from '../domain/tracking/history.ts';
import { historyFrom, knownPoints, planDetection, replacedSpan, type VehicleHistory } from '../domain/tracking/plan.ts';
import type { Position } from '../domain/tracking/position.ts';
import { type DetectionSettings, detectionSettings } from '../domain/tracking/settings.ts';
import type { Trip } from '../domain/trip.ts';
import type { LiveState, Vehicle } from '../domain/vehicle.ts';
import { logger } from '../logger.ts';
import { nextIds } from '../store/counters.ts';
import { listFuelDrops, type StoredDrop } from '../store/fuel-drops.ts';
import { listFuelFills } from '../store/fuel-fills.ts';
import { keys } from '../store/keys.ts';
import {
  type Checkpoint,
  checkpointItem,
  chunkItem,
  findCheckpoint,
  pointsOfChunks,
  putAll,
  readChunks,
  storedChunkOf,
} from '../store/positions.ts';
import { commitDetection, type DetectionCommit, saveTrack, type TrackedVehicle, type TrackUpdate } from '../store/tracks.ts';
import { listTrips } from '../store/trips.ts';
import { liveRecordEntity } from '../store/vehicles.ts';
import { readZoneFacts, zoneFactItem } from '../store/zone-facts.ts';
import { forgetReads, type HistoryBounds, type HistoryReads, keepReads, keptReads, narrowed } from './kept-reads.ts';
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
  /** points and readings of this batch detection did not count, per fault class (a dropout counts when its return arrives) */
  faults: Partial<Record<Fault, number>>;
  /** arrived points set aside: a second fix of an instant already taken, at another place */
  sameSecond: Position[];
}

export interface TrackOptions {
  receivedAt: Date;
  namer: PlaceNamer;
  /** re-detect from this instant even without new points (npm run admin -- reprocess) */
  reprocessFrom?: string;
  /** the vehicle has been silent longer than the gap rule: its open trip ends as the gap will end it (quiet-vehicles.ts) */
  closeSilentTrip?: boolean;
}

const END = '9999';

/**
 * Read what the vehicle's batch needs, plan it (shared/domain/tracking/plan.ts), give new trips and fills their ids
 * and place names, then write: checkpoints and chunks first, then the track item (the new points, the live record)
 * with the trips and fills when they changed, so a batch that fails half-way finds its points still new when retried.
 */
export async function trackVehicle(tracked: TrackedVehicle, incoming: readonly Position[], options: TrackOptions): Promise<VehicleOutcome> {
  try {
    return await detectAndWrite(tracked, incoming, options);
  } catch (error) {
    // what it kept may no longer be the table's (a write landed before the failure): the retry reads
    forgetReads(tracked.vehicle.vehicleUid);
    throw error;
  }
}

async function detectAndWrite(tracked: TrackedVehicle, incoming: readonly Position[], options: TrackOptions): Promise<VehicleOutcome> {
  const outcome: VehicleOutcome = {
    trips: 0,
    fills: 0,
    changed: 0,
    removed: 0,
    keptForSlip: 0,
    writeRequests: 0,
    faults: {},
    sameSecond: [],
  };
  const { vehicle, live, storedTail } = tracked;
  // in arrival order within an instant: the first fix of a second is the one kept
  const incomingByTime = [...incoming].sort((a, b) => a.gps_datetime.localeCompare(b.gps_datetime));
  const earliest = options.reprocessFrom ?? incomingByTime[0]?.gps_datetime;
  if (earliest === undefined) return outcome;
  const profile = profileOf(vehicle);
  const settings = detectionSettings(vehicle.detection);

  const [read, zones] = await Promise.all([readVehicle(tracked, earliest, profile), options.namer.zones(vehicle.vehicleUid)]);
  const { kept: arrived, elsewhere } = sameSecondFaults([...read.history.stored, ...read.history.tail], incomingByTime);
  outcome.sameSecond = elsewhere;
  if (elsewhere.length > 0) outcome.faults['same second'] = elsewhere.length;
  const events = eventSettings(vehicle);
  // A retry whose first attempt stored its points in chunks but failed to commit finds them stored, so none arrived
  // new; the live record, older than they are, shows they were never committed, so it re-detects from them (a replay
  // of a committed batch changes nothing). Same-second fixes set aside elsewhere were never meant to commit.
  const uncommitted =
    live === undefined || incomingByTime.some((position) => position.gps_datetime > live.gpsDatetime && !elsewhere.includes(position));
  const plan =
    planDetection(read.history, arrived, profile, settings, options.reprocessFrom, events) ??
    (uncommitted ? planDetection(read.history, arrived, profile, settings, earliest, events) : undefined);
  if (!plan) {
    forgetReads(vehicle.vehicleUid);
    return { ...outcome, writeRequests: await settleZoneFacts(tracked, read, zones, settings, events) };
  }
  if (options.closeSilentTrip) plan.run.trips.push(...endSilentTrip(plan.run.state, settings).trips);

  const tripUidByStart = new Map(read.trips.map((trip) => [trip.startTime, trip.tripUid]));
  const trips = await replaceTrips(
    vehicle,
    read.trips.filter((trip) => trip.startTime >= read.span.trips),
    plan.run.trips,
    settings,
    options.namer,
  );
  for (const trip of [...trips.newTrips, ...trips.changedTrips.map(({ trip }) => trip)]) tripUidByStart.set(trip.startTime, trip.tripUid);
  const fills = await replaceFills(vehicle, read.fills, plan.run.fills, tripUidByStart, settings, options.namer);
  const drops = replaceDrops(vehicle.vehicleUid, read.drops, plan.run.drops);

  const liveNow = liveStateOf(plan.newest, plan.run.state, vehicle, options.receivedAt);
  const liveChanged = (live === undefined || live.gpsDatetime <= plan.newest.gps_datetime) && !sameLive(live, liveNow);
  // New points taken: the quiet-vehicles check watches the vehicle from now on, and a vehicle that was offline is back.
  const taken = plan.fresh.length > 0 ? { at: options.receivedAt.toISOString(), back: tracked.quiet.offlineAt !== null } : undefined;
  const zoneWalk = walkZones(read.zoneStart, plan.points, zones, zoneSettingsOf(settings, events), read.zoneFacts);
  const zoneChange = zoneChanges(vehicle.vehicleUid, read.zoneFacts, zoneWalk.facts, zones);
  const decided = [
    ...changedFacts(vehicle.vehicleUid, replacedTrips(read.trips, trips), tripEvents),
    ...changedFacts(vehicle.vehicleUid, replacedFills(read.fills, fills), fillEvents),
    ...changedFacts(vehicle.vehicleUid, { before: read.drops, after: plan.run.drops }, dropEvents),
    ...zoneChange.events,
    ...(taken?.back && tracked.quiet.takenAt ? [onlineEvent(tracked.quiet.takenAt, taken.at, plan.newest)] : []),
  ];
  const emitted = emitAll(vehicle, decided, tracked.emission, new Date());
  const emission = decided.length > 0 ? { previous: tracked.emission, next: emitted.state } : undefined;
  const checkpoints = plan.checkpoints.map((item) => ({ ...item, zones: zoneWalk.checkpoints.get(item.hour) }));
  const historyWritten = checkpoints.length > 0 || plan.chunks.length > 0;
  const found = [
    trips.newTrips,
    trips.changedTrips,
    trips.removedTrips,
    fills.newFills,
    fills.changedFills,
    fills.removedFills,
    drops.savedDrops,
    drops.removedDrops,
    zoneChange.put,
    zoneChange.remove,
  ].some((list) => list.length > 0);
  // Whatever the batch writes, the track item's revision moves after it (kept-reads.ts), even when nothing else on it changes.
  const track: TrackUpdate | undefined =
    liveChanged || plan.tailChanged || emission || taken || historyWritten || found
      ? {
          live: liveChanged ? liveNow : undefined,
          tail: liveChanged || plan.tailChanged ? plan.tail : (storedTail ?? null),
          previousTail: storedTail,
          previousRevision: tracked.revision,
          ...(emission ? { emission } : {}),
          ...(taken ? { taken } : {}),
        }
      : undefined;

  outcome.writeRequests += await putAll([
    ...checkpoints.map((checkpoint) => checkpointItem(vehicle.vehicleUid, checkpoint)),
    ...plan.chunks.map((chunk) => chunkItem(vehicle.vehicleUid, chunk)),
  ]);
  const commit: DetectionCommit = {
    vehicleUid: vehicle.vehicleUid,
    track,
    ...trips,
    ...fills,
    ...drops,
    events: emitted.events,
    audiences: emitted.audiences,
    zoneFacts: zoneFactWrites(vehicle.vehicleUid, zoneChange),
  };
  if (found || emitted.events.length > 0) outcome.writeRequests += await commitDetection(commit);
  else if (track) outcome.writeRequests += await saveTrack(vehicle.vehicleUid, track);
  // in order, nothing re-detected before the history's end: the next batch of the vehicle reads what this one leaves
  const inOrder = options.reprocessFrom === undefined && !options.closeSilentTrip && newestOf(plan.known) <= earliest;
  if (track && inOrder) {
    const newest = newestOf([...plan.points, ...read.history.tail]);
    const chunks = plan.chunks.map((chunk) => storedChunkOf(vehicle.vehicleUid, chunk));
    keepReads(tracked, tracked.revision + 1, newest, read.reads, { checkpoints, chunks, commit });
  } else forgetReads(vehicle.vehicleUid);

  if (fills.keptForSlip.length > 0) {
    logger.warn('re-detection no longer finds fills that have slips; they are kept', {
      vehicleUid: vehicle.vehicleUid,
      eventUids: fills.keptForSlip,
    });
  }
  return {
    ...outcome,
    trips: trips.newTrips.length,
    fills: fills.newFills.length,
    changed: trips.changedTrips.length + fills.changedFills.length,
    removed: trips.removedTrips.length + fills.removedFills.length,
    keptForSlip: fills.keptForSlip.length,
    faults: { ...outcome.faults, ...plan.faults },
  };
}

const zoneFactWrites = (vehicleUid: number, change: Pick<ZoneChange, 'put' | 'remove'>): DetectionCommit['zoneFacts'] => ({
  put: change.put.map((fact) => zoneFactItem(vehicleUid, fact, eventIdOf(vehicleUid, fact.event))),
  remove: change.remove.map((fact) => keys.zoneFact(vehicleUid, fact.decidedAt, eventIdOf(vehicleUid, fact.event))),
});

/**
 * A batch without a new point: a replay, or the retry of a batch that failed after storing its points but before
 * its commit. Its window is walked again and compared with the stored zone facts, so the retry emits what the failed
 * commit did not, and a replay (nothing to change) writes nothing.
 */
async function settleZoneFacts(
  tracked: TrackedVehicle,
  read: Awaited<ReturnType<typeof readVehicle>>,
  zones: UserZones[],
  settings: DetectionSettings,
  events: EventSettings,
): Promise<number> {
  const { vehicle, emission, storedTail } = tracked;
  const walk = walkZones(read.zoneStart, knownPoints(read.history), zones, zoneSettingsOf(settings, events), read.zoneFacts);
  const change = zoneChanges(vehicle.vehicleUid, read.zoneFacts, walk.facts, zones);
  if (change.put.length === 0 && change.remove.length === 0) return 0;
  const emitted = emitAll(vehicle, change.events, emission, new Date());
  return commitDetection({
    vehicleUid: vehicle.vehicleUid,
    track: {
      live: undefined,
      tail: storedTail ?? null,
      previousTail: storedTail,
      previousRevision: tracked.revision,
      ...(change.events.length > 0 ? { emission: { previous: emission, next: emitted.state } } : {}),
    },
    newTrips: [],
    changedTrips: [],
    removedTrips: [],
    newFills: [],
    changedFills: [],
    removedFills: [],
    savedDrops: [],
    removedDrops: [],
    events: emitted.events,
    audiences: emitted.audiences,
    zoneFacts: zoneFactWrites(vehicle.vehicleUid, change),
  });
}

/** The stored trips a detection changed or removed, and what replaced them: the events' before and after. */
function replacedTrips(stored: readonly Trip[], { newTrips, changedTrips, removedTrips }: Awaited<ReturnType<typeof replaceTrips>>) {
  const replaced = new Set([...changedTrips.map(({ trip }) => trip.tripUid), ...removedTrips.map(({ tripUid }) => tripUid)]);
  return { before: stored.filter((trip) => replaced.has(trip.tripUid)), after: [...changedTrips.map(({ trip }) => trip), ...newTrips] };
}

function replacedFills(stored: readonly FuelFill[], { newFills, changedFills, removedFills }: Awaited<ReturnType<typeof replaceFills>>) {
  const replaced = new Set([...changedFills.map((fill) => fill.eventUid), ...removedFills]);
  return { before: stored.filter((fill) => replaced.has(fill.eventUid)), after: [...changedFills, ...newFills] };
}

/**
 * The checkpoint before the earliest point, the history since, and the trips and fills re-detection may replace: from
 * what the container kept of the vehicle's last batch when that is still the table's (kept-reads.ts), else from the table.
 */
async function readVehicle(tracked: TrackedVehicle, earliest: string, profile: VehicleProfile) {
  const { vehicle, tail, storedTail, legacyState } = tracked;
  const kept = keptReads(tracked, earliest);
  const checkpoint = kept ? kept.checkpoint : await findCheckpoint(vehicle.vehicleUid, hourOf(earliest));
  const start = checkpoint?.state ?? legacyState ?? initialTrackState(profile);
  const from = historyFrom(checkpoint?.hour);
  const span = replacedSpan(start, from);
  const bounds: HistoryBounds = { trips: [span.trips, start.lastTripStart ?? END].sort()[0] as string, drops: span.drops, history: from };
  const [reads, fills] = await Promise.all([
    (kept && narrowed(kept, bounds)) ?? readHistory(vehicle.vehicleUid, checkpoint, bounds),
    listFuelFills(vehicle.vehicleUid, span.fills, END),
  ]);
  const stored = pointsOfChunks(reads.chunks, vehicle.imei, from);
  const history: VehicleHistory = { start, checkpointHour: checkpoint?.hour, stored, tail, hasStoredTail: storedTail !== undefined };
  const zoneFacts = reads.zoneFacts.map(({ fact }) => fact);
  return {
    history,
    span,
    trips: reads.trips,
    fills,
    drops: reads.drops,
    zoneStart: checkpoint?.zones ?? initialZoneState(),
    zoneFacts,
    reads,
  };
}

async function readHistory(vehicleUid: number, checkpoint: Checkpoint | undefined, bounds: HistoryBounds): Promise<HistoryReads> {
  const [chunks, trips, drops, zoneFacts] = await Promise.all([
    readChunks(vehicleUid, bounds.history),
    listTrips(vehicleUid, bounds.trips, END),
    listFuelDrops(vehicleUid, bounds.drops),
    readZoneFacts(vehicleUid, bounds.history),
  ]);
  return { checkpoint, chunks, trips, drops, zoneFacts, bounds };
}

/** The latest time of the points ('' for none). */
const newestOf = (points: readonly Position[]): string =>
  points.reduce((newest, point) => (point.gps_datetime > newest ? point.gps_datetime : newest), '');

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

const DROP_FIELDS = ['latitude', 'longitude', 'levelBefore', 'levelAfter', 'dropQty', 'moving'] as const;

/** The drops re-detection found that are not stored as they are, and the stored ones it no longer finds (by their start). */
function replaceDrops(vehicleUid: number, stored: readonly StoredDrop[], found: readonly DetectedDrop[]) {
  const storedAt = new Map(stored.map((drop) => [drop.at, drop]));
  const foundAt = new Set(found.map((drop) => drop.at));
  const same = (drop: DetectedDrop, before: StoredDrop | undefined) =>
    before !== undefined && DROP_FIELDS.every((field) => drop[field] === before[field]);
  return {
    savedDrops: found.filter((drop) => !same(drop, storedAt.get(drop.at))).map((drop) => ({ ...drop, vehicleUid })),
    removedDrops: stored.filter((drop) => !foundAt.has(drop.at)).map((drop) => drop.at),
  };
}

export function profileOf(vehicle: Vehicle): VehicleProfile {
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
    // a dropout shows the level, not the sensor's 0
    fuelValue: position.fuel_raw === null ? null : (state.last?.fuelReading ?? state.last?.fuel ?? position.fuel_raw * vehicle.fuelFactor),
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
