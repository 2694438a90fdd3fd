/**
 * The positions pipeline (DESIGN.md section 5): a batch of raw records → per vehicle, in GPS order,
 * the live record, odometer and engine hours, trips and fuel fills. The same code serves the Kinesis
 * Lambda, `npm run admin -- ingest` and the local seed.
 */
import { detect, initialTrackState, type DetectedFill, type DetectedTrip, type VehicleProfile } from '../domain/tracking/detector.ts';
import { parsePosition, type Position } from '../domain/tracking/position.ts';
import { detectionSettings } from '../domain/tracking/settings.ts';
import type { FuelFill } from '../domain/fuel-fill.ts';
import type { Trip } from '../domain/trip.ts';
import type { LiveState, Vehicle } from '../domain/vehicle.ts';
import { logger } from '../logger.ts';
import { putObject } from '../store/bucket.ts';
import { nextIds } from '../store/counters.ts';
import { commitTrack, findTrackedVehicles, MAX_TRANSACTION_ITEMS, type TrackedVehicle } from '../store/tracks.ts';
import { PlaceNamer } from './place-namer.ts';

/** One record as it arrived: its id (a Kinesis sequence number, a file line) and its JSON text. */
export interface RawRecord {
  id: string;
  data: string;
}

export interface BatchOutcome {
  records: number;
  accepted: number;
  rejected: Array<{ id: string; reason: string }>;
  /** IMEIs of the known vehicles that had positions in the batch */
  imeis: string[];
  trips: number;
  fills: number;
  /** records of vehicles whose processing failed: to be retried (Kinesis partial batch failure) */
  failedIds: string[];
  /** DynamoDB items written (each a write request) */
  writeRequests: number;
}

export interface BatchOptions {
  /** names the batch's S3 objects; the same batch gets the same name, so a replay overwrites, never duplicates */
  batchName: string;
  receivedAt?: Date;
}

/** Positions per detection step: keeps one vehicle's commit within one DynamoDB transaction. */
const POSITIONS_PER_COMMIT = 150;

export async function processPositions(records: readonly RawRecord[], { batchName, receivedAt = new Date() }: BatchOptions): Promise<BatchOutcome> {
  const rejected: BatchOutcome['rejected'] = [];
  const byImei = new Map<string, Array<{ id: string; position: Position }>>();
  for (const record of records) {
    const parsed = parsePosition(record.data);
    if (!parsed.ok) rejected.push({ id: record.id, reason: parsed.reason });
    else byImei.set(parsed.position.imei, [...(byImei.get(parsed.position.imei) ?? []), { id: record.id, position: parsed.position }]);
  }

  const tracked = await findTrackedVehicles([...byImei.keys()]);
  for (const [imei, entries] of byImei) {
    if (tracked.has(imei)) continue;
    for (const entry of entries) rejected.push({ id: entry.id, reason: `unknown imei ${imei}` });
    byImei.delete(imei);
  }

  await archive(records, rejected, batchName, receivedAt);

  const outcome: BatchOutcome = {
    records: records.length,
    accepted: records.length - rejected.length,
    rejected,
    imeis: [...byImei.keys()],
    trips: 0,
    fills: 0,
    failedIds: [],
    writeRequests: 0,
  };
  const namer = new PlaceNamer();
  await Promise.all(
    [...byImei].map(async ([imei, entries]) => {
      try {
        const written = await processVehicle(tracked.get(imei) as TrackedVehicle, entries.map((entry) => entry.position), receivedAt, namer);
        outcome.trips += written.trips;
        outcome.fills += written.fills;
        outcome.writeRequests += written.writeRequests;
      } catch (error) {
        logger.error('vehicle batch failed; its records will be retried', { imei, error: error as Error });
        outcome.failedIds.push(...entries.map((entry) => entry.id));
      }
    }),
  );
  if (rejected.length > 0) logger.warn('positions rejected', { batchName, rejected: rejected.length, firstReason: rejected[0]?.reason });
  return outcome;
}

/** The raw batch goes to the archive; rejected records to the dead-letter prefix with their reasons. */
async function archive(records: readonly RawRecord[], rejected: BatchOutcome['rejected'], batchName: string, receivedAt: Date): Promise<void> {
  const day = receivedAt.toISOString().slice(0, 10).replaceAll('-', '/');
  const writes = [putObject(`positions/raw/${day}/${batchName}.ndjson`, ndjson(records.map((record) => record.data)), 'application/x-ndjson')];
  if (rejected.length > 0) {
    const data = new Map(records.map((record) => [record.id, record.data]));
    const lines = rejected.map(({ id, reason }) => JSON.stringify({ id, reason, data: data.get(id) }));
    writes.push(putObject(`positions/dead-letter/${day}/${batchName}.ndjson`, ndjson(lines), 'application/x-ndjson'));
  }
  await Promise.all(writes);
}

const ndjson = (lines: string[]): string => `${lines.join('\n')}\n`;

function profileOf(vehicle: Vehicle): VehicleProfile {
  return {
    odometerAtStartKm: vehicle.odometerAtStart ?? 0,
    startHours: vehicle.startHours,
    fuelCapacity: vehicle.fuelCapacity,
    fuelFactor: vehicle.fuelFactor,
  };
}

async function processVehicle({ vehicle, track }: TrackedVehicle, positions: Position[], receivedAt: Date, namer: PlaceNamer) {
  const profile = profileOf(vehicle);
  const settings = detectionSettings(vehicle.detection);
  let state = track?.state ?? initialTrackState(profile);
  let lastTripUid = track?.lastTripUid ?? null;
  let version = track?.version ?? null;
  const written = { trips: 0, fills: 0, writeRequests: 0 };
  const ordered = [...positions].sort((a, b) => a.gps_datetime.localeCompare(b.gps_datetime));

  for (let i = 0; i < ordered.length; i += POSITIONS_PER_COMMIT) {
    const detection = detect(state, ordered.slice(i, i + POSITIONS_PER_COMMIT), profile, settings);
    if (!detection.latest) continue;
    const [tripUids, fillUids] = await Promise.all([
      nextIds('trip', detection.trips.length),
      nextIds('fuel-fill', detection.fills.length),
    ]);
    const trips = await Promise.all(detection.trips.map((trip, n) => namedTrip(vehicle, trip, tripUids[n] as number, namer)));
    const tripUidByStart = new Map(trips.map((trip) => [trip.startTime, trip.tripUid]));
    if (state.lastTripStart && lastTripUid !== null) tripUidByStart.set(state.lastTripStart, lastTripUid);
    const fills = await Promise.all(
      detection.fills.map((fill, n) => namedFill(vehicle, fill, fillUids[n] as number, tripUidByStart, namer)),
    );
    lastTripUid = detection.state.lastTripStart ? (tripUidByStart.get(detection.state.lastTripStart) ?? lastTripUid) : lastTripUid;
    if (trips.length + fills.length + 2 > MAX_TRANSACTION_ITEMS) throw new Error('too many trips and fills for one commit');
    written.writeRequests += await commitTrack({
      vehicleUid: vehicle.vehicleUid,
      expectedVersion: version,
      track: { state: detection.state, lastTripUid },
      live: liveStateOf(detection.latest, detection.state.odometerKm, detection.state.engineHours, vehicle, receivedAt),
      trips,
      fills,
    });
    written.writeRequests += (trips.length > 0 ? 1 : 0) + (fills.length > 0 ? 1 : 0);
    written.trips += trips.length;
    written.fills += fills.length;
    version = (version ?? 0) + 1;
    state = detection.state;
  }
  return written;
}

function liveStateOf(position: Position, odometerKm: number, engineHours: number | null, vehicle: Vehicle, receivedAt: Date): LiveState {
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
    odometerKm,
    engineHours,
  };
}

async function namedTrip(vehicle: Vehicle, trip: DetectedTrip, tripUid: number, namer: PlaceNamer): Promise<Trip> {
  const [startLocation, stopLocation, driver] = await Promise.all([
    namer.placeName(vehicle.vehicleUid, { lat: trip.startLat, lng: trip.startLng }),
    namer.placeName(vehicle.vehicleUid, { lat: trip.stopLat, lng: trip.stopLng }),
    namer.driver(vehicle.vehicleUid, trip.driverTagId),
  ]);
  return { ...trip, tripUid, vehicleUid: vehicle.vehicleUid, startLocation, stopLocation, driverName: driver?.fullname ?? null };
}

async function namedFill(vehicle: Vehicle, fill: DetectedFill, eventUid: number, tripUidByStart: Map<string, number>, namer: PlaceNamer): Promise<FuelFill> {
  const [location, driver] = await Promise.all([
    namer.placeName(vehicle.vehicleUid, { lat: fill.latitude, lng: fill.longitude }),
    namer.driver(vehicle.vehicleUid, fill.driverTagId),
  ]);
  const { driverTagId: _tag, precedingTripStart, sincePreviousFill, ...measured } = fill;
  return {
    ...measured,
    eventUid,
    vehicleUid: vehicle.vehicleUid,
    location,
    operatorUid: driver?.operator_uid ?? null,
    operatorName: driver?.fullname ?? null,
    tripUid: precedingTripStart ? (tripUidByStart.get(precedingTripStart) ?? null) : null,
    distanceKm: sincePreviousFill?.distanceKm ?? null,
    durationS: sincePreviousFill?.durationS ?? null,
    fuelUsed: sincePreviousFill?.fuelUsed ?? null,
    slipUid: null,
  };
}
