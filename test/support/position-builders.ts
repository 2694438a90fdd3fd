/** Position records for pipeline tests: simple straight drives and parked spells with known answers. */
import { randomUUID } from 'node:crypto';
import type { LatLng } from '../../shared/domain/geo.ts';
import { distanceKm } from '../../shared/domain/geo.ts';
import { chunksOf } from '../../shared/domain/tracking/history.ts';
import { type Position, parsePosition } from '../../shared/domain/tracking/position.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { processPositions, type RawRecord } from '../../shared/pipeline/process-positions.ts';
import { chunkItem, putAll } from '../../shared/store/positions.ts';
import type { Item } from '../../shared/store/requests.ts';
import { asFunction } from './as-function.ts';

export type PositionRecordInput = Record<string, unknown> & { imei: string; gps_datetime: string };

export const DEPOT: LatLng = { lat: -26.2041, lng: 28.0473 };
export const CLIENT: LatLng = { lat: -26.1076, lng: 28.0567 };

const at = (start: string, seconds: number): string => new Date(Date.parse(start) + seconds * 1000).toISOString();

export function aPositionRecord(imei: string, gpsDatetime: string, overrides: Record<string, unknown> = {}): PositionRecordInput {
  return {
    imei,
    gps_datetime: gpsDatetime,
    latitude: DEPOT.lat,
    longitude: DEPOT.lng,
    speed: 0,
    heading: 0,
    ignition: false,
    odometer_km: null,
    engine_hours: null,
    fuel_raw: 50,
    supp_volt: 13.8,
    int_batt_volt: 4.1,
    int_temp: 30,
    ext_temp: null,
    driver_tag_id: null,
    device_type: 'FMB920',
    config: '12',
    ...overrides,
  };
}

/** A record as the pipeline parses it, for tests that skip the stream. */
export function positionOf(record: object): Position {
  const parsed = parsePosition(JSON.stringify(record));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.position;
}

/** Parked at a place for `minutes`, one record every `intervalS` seconds. */
export function parked(
  imei: string,
  start: string,
  minutes: number,
  place: LatLng,
  overrides: Record<string, unknown> = {},
  intervalS = 60,
) {
  return Array.from({ length: Math.floor((minutes * 60) / intervalS) }, (_, i) =>
    aPositionRecord(imei, at(start, i * intervalS), { latitude: place.lat, longitude: place.lng, ...overrides }),
  );
}

/**
 * Ignition on at `start`, a straight drive from `from` to `to` in `minutes`, a fix every `intervalS` seconds, ignition
 * off on arrival. Answers the records and the drive's true distance.
 */
export function drive(
  imei: string,
  start: string,
  minutes: number,
  from: LatLng,
  to: LatLng,
  overrides: Record<string, unknown> = {},
  intervalS = 30,
) {
  const steps = Math.floor((minutes * 60) / intervalS);
  const km = distanceKm(from, to);
  const speed = km / (minutes / 60);
  const records = [aPositionRecord(imei, start, { latitude: from.lat, longitude: from.lng, ignition: true, ...overrides })];
  for (let i = 1; i <= steps; i++) {
    const f = i / steps;
    records.push(
      aPositionRecord(imei, at(start, intervalS + i * intervalS), {
        latitude: from.lat + (to.lat - from.lat) * f,
        longitude: from.lng + (to.lng - from.lng) * f,
        speed: i === steps ? 0 : speed,
        ignition: true,
        ...overrides,
      }),
    );
  }
  const stopTime = at(start, 2 * intervalS + steps * intervalS);
  records.push(aPositionRecord(imei, stopTime, { latitude: to.lat, longitude: to.lng, ignition: false, ...overrides }));
  return { records, distanceKm: km, stopTime };
}

/**
 * Runs records through the pipeline as one batch (as a Kinesis event would carry them), with the pipeline function's
 * permissions; the name (its archive's) is unique in the run. Without `receivedAt` the batch is a replay: it arrives
 * when its points were made.
 */
export function ingest(records: ReadonlyArray<PositionRecordInput | string>, batchName = `test-batch-${randomUUID()}`, receivedAt?: Date) {
  const raw: RawRecord[] = records.map((record, i) => ({
    id: String(i + 1),
    data: typeof record === 'string' ? record : JSON.stringify(record),
  }));
  return asFunction('processPositions', () => processPositions(raw, { batchName, receivedAt }));
}

/**
 * `count` points one second apart from `start`, stored as history chunks of `pointsPerChunk` points, as a device's
 * small batches leave them (the pipeline writes a chunk each time the track item's tail fills, about 10 points).
 * Single-point chunks take about 200 bytes a point, so a few thousand outgrow one DynamoDB Query page. Answers their times.
 */
export async function givenDenseHistory(vehicle: Vehicle, start: string, count: number, pointsPerChunk = 1): Promise<string[]> {
  const positions = Array.from({ length: count }, (_, i) =>
    positionOf(aPositionRecord(vehicle.imei, at(start, i), { speed: 30, ignition: true })),
  );
  const items: Item[] = [];
  for (let i = 0; i < count; i += pointsPerChunk)
    items.push(...chunksOf(positions.slice(i, i + pointsPerChunk)).map((chunk) => chunkItem(vehicle.vehicleUid, chunk)));
  for (let i = 0; i < items.length; i += 250) await putAll(items.slice(i, i + 250));
  return positions.map((position) => position.gps_datetime);
}
