/**
 * A Teltonika AVL record → the normalized position record (docs/devices.md, "Teltonika: field mapping"). IO element
 * ids are Teltonika's FMB ids; an element the record has no field for is left out.
 */
import type { PositionRecordInput } from '../../domain/tracking/position.ts';
import type { FuelSensorSetting } from '../../domain/tracking/settings.ts';
import type { AvlRecord } from './codec.ts';

const IO = {
  ignition: 239,
  totalOdometerM: 16,
  externalVoltageMv: 66,
  batteryVoltageMv: 67,
  iButton: 78,
  /** Dallas temperature sensors 1 to 4, signed, in 0.1 °C */
  dallasTemperatures: [72, 73, 74, 75],
} as const;

/** Dallas sensors measure -55 to +125 °C; Teltonika reports a missing or failed sensor as a value outside (2000, 3000…). */
const DALLAS_RANGE_C = [-55, 125] as const;

const unsigned = (bytes: Buffer): number => Number(bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n));
const signed = (bytes: Buffer): number => {
  const value = unsigned(bytes);
  return bytes[0] !== undefined && bytes[0] >= 0x80 ? value - 2 ** (8 * bytes.length) : value;
};

export function toPositionRecord(imei: string, record: AvlRecord, fuelSensor: FuelSensorSetting, receivedAt: Date): PositionRecordInput {
  const io = (id: number) => record.io.get(id);
  const thousandths = (id: number) => {
    const bytes = io(id);
    return bytes === undefined ? null : unsigned(bytes) / 1000;
  };
  const ignition = io(IO.ignition);
  const fuel = io(fuelSensor.ioId);
  return {
    imei,
    gps_datetime: instantOf(record.timestampMs),
    latitude: record.latitude,
    longitude: record.longitude,
    speed: record.speedKmh,
    heading: record.angle,
    ignition: ignition === undefined ? null : unsigned(ignition) !== 0,
    odometer_km: thousandths(IO.totalOdometerM),
    supp_volt: thousandths(IO.externalVoltageMv),
    int_batt_volt: thousandths(IO.batteryVoltageMv),
    ext_temp: firstDallasTemperature(record),
    driver_tag_id: driverTag(io(IO.iButton)),
    // Fuel probes report their faults as negative values (LLS: -1 short circuit, -2 no connection...).
    fuel_raw: fuel === undefined || signed(fuel) < 0 ? null : signed(fuel) * fuelSensor.scale,
    // No satellites in view: the unit repeats its last fix, which is not where the vehicle is now.
    valid: record.satellites > 0,
    satellites: record.satellites,
    protocol: 'teltonika',
    received_at: receivedAt.toISOString(),
  };
}

/** The first Dallas sensor (72, then 73, 74, 75) with a reading in the sensors' range, in °C. */
function firstDallasTemperature(record: AvlRecord): number | null {
  for (const id of IO.dallasTemperatures) {
    const bytes = record.io.get(id);
    const celsius = bytes === undefined ? undefined : signed(bytes) / 10;
    if (celsius !== undefined && celsius >= DALLAS_RANGE_C[0] && celsius <= DALLAS_RANGE_C[1]) return celsius;
  }
  return null;
}

/** The iButton's bytes as uppercase hex without leading zero bytes (0 means no key in the reader). */
function driverTag(bytes: Buffer | undefined): string | null {
  if (bytes === undefined) return null;
  const firstNonZero = bytes.findIndex((byte) => byte !== 0);
  return firstNonZero < 0 ? null : bytes.subarray(firstNonZero).toString('hex').toUpperCase();
}

/**
 * The record's time, or (a jammed unit's 2^60 ms, a clock before 1970 or after 9999) a text saying what it was, which no
 * record check accepts.
 */
function instantOf(timestampMs: number): string {
  const date = new Date(timestampMs);
  const year = date.getUTCFullYear();
  return Number.isNaN(year) || year < 1970 || year > 9999 ? `timestamp ${timestampMs} ms` : date.toISOString();
}
