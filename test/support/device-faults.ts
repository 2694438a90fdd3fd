/**
 * Device faults injected into a simulated day (issue 21): each takes one vehicle's records and answers them with
 * the fault, leaving the simulator's truth as it was. Where in the day and how large are parameters, so tests can
 * try the classes at other places and magnitudes.
 */
import type { SimulatedDay, SimulatedRecord } from '../../simulator/index.ts';

const shifted = (at: string, ms: number): string => new Date(Date.parse(at) + ms).toISOString();
const M_PER_DEG = 111_320;

/** The index of the record nearest the middle of the day's n-th true trip. */
export function midTrip(day: SimulatedDay, n: number): number {
  const trip = day.truth.trips.at(n);
  if (!trip) throw new Error(`the day has no trip ${n}`);
  const middle = (Date.parse(trip.start) + Date.parse(trip.stop)) / 2;
  return indexBetween(day.records, middle, Date.parse(trip.stop));
}

/** The index of a record `minutes` after the day's n-th true trip stopped (parked, before the next one starts). */
export function parkedAfter(day: SimulatedDay, n: number, minutes = 10): number {
  const trip = day.truth.trips.at(n);
  if (!trip) throw new Error(`the day has no trip ${n}`);
  const from = Date.parse(trip.stop) + minutes * 60_000;
  return indexBetween(day.records, from, from + 3_600_000);
}

/** The first record from `from` up to `to` (ms): a glitch injected before, dated elsewhere, is not it. */
function indexBetween(records: readonly SimulatedRecord[], from: number, to: number): number {
  const index = records.findIndex((record) => Date.parse(record.gps_datetime) >= from && Date.parse(record.gps_datetime) <= to);
  if (index < 0) throw new Error(`no record between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}`);
  return index;
}

const replaced = (records: readonly SimulatedRecord[], from: number, count: number, change: (record: SimulatedRecord) => SimulatedRecord) =>
  records.map((record, n) => (n >= from && n < from + count ? change(record) : record));

export const deviceFaults = {
  /**
   * One more record, a copy of the one at `index` with its clock `ms` off (years ahead, or 1024 weeks back), delivered
   * in its place: it arrives when the true one does.
   */
  clockGlitch: (records: readonly SimulatedRecord[], index: number, ms: number): SimulatedRecord[] => {
    const original = records[index] as SimulatedRecord;
    const glitch = { ...original, gps_datetime: shifted(original.gps_datetime, ms), received_at: shifted(original.gps_datetime, 1000) };
    return [...records.slice(0, index + 1), glitch, ...records.slice(index + 1)];
  },

  /** the `count` records after `index` carry its timestamp (a stuck clock) */
  stuckClock: (records: readonly SimulatedRecord[], index: number, count: number) =>
    replaced(records, index + 1, count, (record) => ({ ...record, gps_datetime: (records[index] as SimulatedRecord).gps_datetime })),

  /** every record sent twice (double reporting) */
  doubled: (records: readonly SimulatedRecord[]) => records.flatMap((record) => [record, { ...record }]),

  /** `count` records from `index` at 0,0 (a tracker without a fix yet) */
  zeroFixes: (records: readonly SimulatedRecord[], index: number, count: number) =>
    replaced(records, index, count, (record) => ({ ...record, latitude: 0, longitude: 0 })),

  /** `count` records from `index` marked invalid by the device, their position `km` off to the north */
  invalidFixes: (records: readonly SimulatedRecord[], index: number, count: number, km: number) =>
    replaced(records, index, count, (record) => ({
      ...record,
      latitude: record.latitude + (km * 1000) / M_PER_DEG,
      valid: false,
      satellites: 0,
    })),

  /** `count` records from `index` moved `km` to the east, with nothing to say they are wrong */
  jumps: (records: readonly SimulatedRecord[], index: number, count: number, km: number) =>
    replaced(records, index, count, (record) => ({
      ...record,
      longitude: record.longitude + (km * 1000) / (M_PER_DEG * Math.cos((record.latitude * Math.PI) / 180)),
    })),

  /** `count` fuel readings from `index` replaced by a sensor value `raw` (0: the dropout value; low: a fall; high: beyond the tank) */
  fuelReadings: (records: readonly SimulatedRecord[], index: number, count: number, raw: number) =>
    replaced(records, index, count, (record) => ({ ...record, fuel_raw: raw })),

  /** from `index` on, the device odometer restarts from `restartKm` (a replaced or reset device) */
  odometerRestart: (records: readonly SimulatedRecord[], index: number, restartKm = 0) => {
    const base = (records[index] as SimulatedRecord).odometer_km;
    if (base === null) throw new Error('the vehicle reports no odometer');
    return replaced(records, index, records.length, (record) => ({
      ...record,
      odometer_km: record.odometer_km === null ? null : Math.round((record.odometer_km - base + restartKm) * 10) / 10,
    }));
  },

  /** `count` odometer readings from `index` `km` too high (a garbled reading), then right again */
  odometerSpike: (records: readonly SimulatedRecord[], index: number, count: number, km: number) =>
    replaced(records, index, count, (record) => ({ ...record, odometer_km: record.odometer_km === null ? null : record.odometer_km + km })),
};

/** The day with its records replaced (by a fault), the truth untouched. */
export const withRecords = (day: SimulatedDay, records: SimulatedRecord[]): SimulatedDay => ({ ...day, records });
