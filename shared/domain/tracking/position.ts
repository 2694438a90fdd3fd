/**
 * The normalized position record devices' data arrives in (docs/positions-pipeline.md): one JSON object,
 * NDJSON in files. Only imei, gps_datetime, latitude and longitude are required.
 */
import * as v from 'valibot';
import { COORDINATE_DECIMALS, roundTo } from '../geo.ts';
import { isPlainObject } from '../json.ts';
import { isCalendarDate } from '../time.ts';

/** A real instant: a calendar day, a valid clock time and an explicit offset (2026-02-30 is refused, not rolled over). */
function isIsoInstant(text: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  return match !== null && isCalendarDate(match[1] as string) && Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60;
}

/**
 * Device readings are kept to 6 decimals (coordinates to 7) and refused beyond 1e12, so no record
 * carries a number DynamoDB cannot store (below 1e-130, above 1e126) into the vehicle's commit,
 * which would fail the whole batch again on every retry.
 */
const MAX_READING = 1e12;
const READING_DECIMALS = 6;
const reading = v.pipe(
  v.number(),
  v.finite(),
  v.transform((value: number) => roundTo(value, READING_DECIMALS)),
  v.check((value) => Math.abs(value) <= MAX_READING, 'out of range'),
);
/** A reading a device may not send: absent and null are both null. */
const optionalReading = v.optional(v.nullable(reading), null);
const optionalTextReading = v.optional(v.nullable(v.pipe(v.union([v.string(), v.number()]), v.transform(String))), null);

export const PositionRecord = v.object({
  imei: v.pipe(
    v.union([v.string(), v.number()], 'imei is required'),
    v.transform(String),
    v.regex(/^\d{6,20}$/, 'imei must be 6 to 20 digits'),
  ),
  gps_datetime: v.pipe(
    v.string('gps_datetime is required'),
    v.check(isIsoInstant, 'gps_datetime must be ISO 8601 with an offset'),
    v.transform((text) => new Date(text).toISOString()),
  ),
  latitude: v.pipe(
    v.number('latitude is required'),
    v.transform((value) => roundTo(value, COORDINATE_DECIMALS)),
    v.minValue(-90, 'latitude out of range'),
    v.maxValue(90, 'latitude out of range'),
  ),
  longitude: v.pipe(
    v.number('longitude is required'),
    v.transform((value) => roundTo(value, COORDINATE_DECIMALS)),
    v.minValue(-180, 'longitude out of range'),
    v.maxValue(180, 'longitude out of range'),
  ),
  speed: v.optional(v.nullable(v.pipe(reading, v.minValue(0), v.maxValue(400))), null),
  heading: optionalReading,
  ignition: v.optional(v.nullable(v.boolean()), null),
  odometer_km: v.optional(v.nullable(v.pipe(reading, v.minValue(0))), null),
  engine_hours: v.optional(v.nullable(v.pipe(reading, v.minValue(0))), null),
  fuel_raw: v.optional(v.nullable(v.pipe(reading, v.minValue(0))), null),
  supp_volt: optionalReading,
  int_batt_volt: optionalReading,
  int_temp: optionalReading,
  ext_temp: optionalReading,
  driver_tag_id: optionalTextReading,
  device_type: optionalTextReading,
  config: optionalTextReading,
  /** false when the device marks its fix invalid (no GPS lock); null when the protocol does not say */
  valid: v.optional(v.nullable(v.boolean()), null),
  satellites: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255))), null),
  /** the entry point that turned a device's message into this record (osmand, traccar, teltonika); null: our JSON */
  protocol: optionalTextReading,
  /** when the entry point received the message; the pipeline measures lateness and the future from it */
  received_at: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.check(isIsoInstant, 'received_at must be ISO 8601 with an offset'),
        v.transform((text) => new Date(text).toISOString()),
      ),
    ),
    null,
  ),
});

export type Position = v.InferOutput<typeof PositionRecord>;
/** A normalized record as an entry point writes it to the stream (JSON; the pipeline parses it). */
export type PositionRecordInput = v.InferInput<typeof PositionRecord>;

export type ParsedPosition = { ok: true; position: Position } | { ok: false; reason: string };

/** A record as it arrived (text) → a position, or why it cannot be one. */
export function parsePosition(text: string): ParsedPosition {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (!isPlainObject(value)) return { ok: false, reason: 'not a JSON object' };
  // Every declared field is passed explicitly, so a missing one fails with its own message ("imei is required").
  const declared = Object.fromEntries(Object.keys(PositionRecord.entries).map((key) => [key, value[key]]));
  const result = v.safeParse(PositionRecord, declared);
  if (!result.success) {
    const issue = result.issues[0];
    const field = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    return { ok: false, reason: field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message };
  }
  return { ok: true, position: result.output };
}
