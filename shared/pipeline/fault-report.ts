/**
 * What the device faults cost one vehicle over a time range (npm run admin -- faults): how many points were set
 * aside and how many points and readings detection ignored, per fault class, with the newest example of each.
 * Nothing extra is written per position for it: the ignored ones are found again by running the detector over the
 * stored history from the checkpoint before the range (as re-detection does), the set-aside ones are read from the
 * dead-letter prefix of the days the range was received in.
 */
import { initialTrackState } from '../domain/tracking/detector.ts';
import { type Fault, SET_ASIDE_FAULTS, type SetAsideFault } from '../domain/tracking/faults.ts';
import { byTime, hourOf } from '../domain/tracking/history.ts';
import { detectByHour } from '../domain/tracking/hourly-run.ts';
import { historyFrom } from '../domain/tracking/plan.ts';
import { parsePosition } from '../domain/tracking/position.ts';
import { detectionSettings } from '../domain/tracking/settings.ts';
import type { Vehicle } from '../domain/vehicle.ts';
import { findObject, listKeys } from '../store/bucket.ts';
import { findCheckpoint, readPositions } from '../store/positions.ts';
import { findTrackedVehicles, trackedFromItem } from '../store/tracks.ts';
import { findVehicle } from '../store/vehicles.ts';
import { archiveDay } from './process-positions.ts';
import { profileOf } from './track-vehicle.ts';

export interface FaultCount {
  count: number;
  /** the newest: its device time, and for a set-aside point the record as it arrived */
  newest: { gps_datetime: string; decided_at?: string; record?: string; readings?: string[] };
}

export type FaultReport = Partial<Record<Fault, FaultCount>>;

const DAY_MS = 86_400_000;

/** `from` and `to` are UTC instants; undefined when there is no such vehicle. */
export async function faultReport(vehicleUid: number, from: string, to: string): Promise<FaultReport | undefined> {
  const vehicle = await findVehicle(vehicleUid);
  if (!vehicle) return undefined;
  const [ignored, setAside] = await Promise.all([ignoredIn(vehicle, from, to), setAsideIn(vehicle.imei, from, to)]);
  return { ...setAside, ...ignored };
}

/** Points and readings detection ignores, by their device time. */
async function ignoredIn(vehicle: Vehicle, from: string, to: string): Promise<FaultReport> {
  const { vehicleUid } = vehicle;
  const tracked = (await findTrackedVehicles([vehicle.imei])).get(vehicle.imei) ?? trackedFromItem(vehicle, undefined);
  const profile = profileOf(vehicle);
  const checkpoint = await findCheckpoint(vehicleUid, hourOf(from));
  const since = historyFrom(checkpoint?.hour);
  const stored = await readPositions(vehicleUid, vehicle.imei, since, to);
  const points = byTime([...stored, ...tracked.tail.filter((point) => point.gps_datetime >= since && point.gps_datetime <= to)]);
  const start = checkpoint?.state ?? tracked.legacyState ?? initialTrackState(profile);
  const run = detectByHour(start, points, profile, detectionSettings(vehicle.detection));
  const report: FaultReport = {};
  for (const { at, fault, decidedAt } of run.ignored) {
    if (at < from || at > to) continue;
    report[fault] = { count: (report[fault]?.count ?? 0) + 1, newest: { gps_datetime: at, decided_at: decidedAt } };
  }
  for (const point of points) {
    const dropped = point.dropped_readings?.length ?? 0;
    if (dropped === 0 || point.gps_datetime < from || point.gps_datetime > to) continue;
    const count = (report['dropped reading']?.count ?? 0) + dropped;
    report['dropped reading'] = { count, newest: { gps_datetime: point.gps_datetime, readings: point.dropped_readings ?? [] } };
  }
  return report;
}

/** Set-aside points by the day they arrived (the dead-letter prefix files them so): their device time is what was wrong. */
async function setAsideIn(imei: string, from: string, to: string): Promise<FaultReport> {
  const report: FaultReport = {};
  const days: string[] = [];
  for (let day = Date.parse(from.slice(0, 10)); day <= Date.parse(to); day += DAY_MS) {
    days.push(archiveDay(day));
  }
  for (const day of days) {
    for (const key of await listKeys(`positions/dead-letter/${day}/`)) {
      const text = new TextDecoder().decode(await findObject(key));
      for (const line of text.split('\n').filter(Boolean)) {
        const { reason, data } = JSON.parse(line) as { reason: string; data: string };
        if (!SET_ASIDE_FAULTS.includes(reason as SetAsideFault)) continue;
        const parsed = parsePosition(data);
        if (!parsed.ok || parsed.position.imei !== imei) continue;
        const fault = reason as SetAsideFault;
        report[fault] = { count: (report[fault]?.count ?? 0) + 1, newest: { gps_datetime: parsed.position.gps_datetime, record: data } };
      }
    }
  }
  return report;
}
