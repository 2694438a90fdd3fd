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

/**
 * Device texts are bounded where they are read, so none can grow into a key or an item DynamoDB refuses: a driver
 * tag becomes part of a key (the operator's tag claim), the others are kept in the history. Control characters
 * are no text a device means.
 */
export const MAX_DRIVER_TAG_CHARS = 64;
export const MAX_DEVICE_TEXT_CHARS = 255;
const printableText = (maxChars: number) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.union([v.string(), v.number()]),
        v.transform(String),
        v.check((text) => [...text].length <= maxChars, `longer than ${maxChars} characters`),
        v.check((text) => !/\p{C}/u.test(text), 'not printable text'),
      ),
    ),
    null,
  );
const optionalTextReading = printableText(MAX_DEVICE_TEXT_CHARS);

const PositionFix = v.object({
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
});

/** What a point may carry besides its fix: each one that does not fit is dropped (null), never the point. */
const PositionReadings = v.object({
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
  driver_tag_id: printableText(MAX_DRIVER_TAG_CHARS),
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

export const PositionRecord = v.object({
  ...PositionFix.entries,
  ...PositionReadings.entries,
  /** the readings the record carried that did not fit (out of range, too long, not a number): kept as null, counted as a fault */
  dropped_readings: v.optional(v.nullable(v.array(v.picklist(Object.keys(PositionReadings.entries)))), null),
});

export type Position = v.InferOutput<typeof PositionRecord>;
/** A normalized record as an entry point writes it to the stream (JSON; the pipeline parses it). */
export type PositionRecordInput = v.InferInput<typeof PositionRecord>;

export type ParsedPosition = { ok: true; position: Position } | { ok: false; reason: string };

/**
 * A record as it arrived (text) → a position, or why it cannot be one. Only its fix (imei, time, coordinates) can
 * refuse a record: a reading that does not fit is dropped, named in dropped_readings with those dropped before.
 */
export function parsePosition(text: string): ParsedPosition {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  return isPlainObject(value) ? positionOf(value) : { ok: false, reason: 'not a JSON object' };
}

/** An object → a position (parsePosition without the JSON text: the entry points check what they decoded). */
export function positionOf(value: Record<string, unknown>): ParsedPosition {
  // Every declared field is passed explicitly, so a missing one fails with its own message ("imei is required").
  const fix = v.safeParse(PositionFix, Object.fromEntries(Object.keys(PositionFix.entries).map((key) => [key, value[key]])));
  if (!fix.success) {
    const issue = fix.issues[0];
    const field = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    return { ok: false, reason: field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message };
  }
  const readings: Record<string, unknown> = {};
  const dropped = new Set(droppedBefore(value.dropped_readings));
  for (const [name, schema] of Object.entries(PositionReadings.entries)) {
    const reading = v.safeParse(schema, value[name]);
    readings[name] = reading.success ? reading.output : null;
    if (!reading.success) dropped.add(name);
  }
  const position = { ...fix.output, ...readings, dropped_readings: dropped.size > 0 ? [...dropped].sort() : null } as Position;
  return { ok: true, position };
}

const droppedBefore = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string' && name in PositionReadings.entries) : [];
