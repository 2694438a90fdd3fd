/**
 * The building blocks of the wire contract, in two kinds with names apart:
 * - parameters: valibot checks of what requests carry. Query and form values arrive as text and JSON bodies may
 *   carry numbers, so each accepts both and yields one type; each carries the spec's message for its parameter.
 * - fields (`...Field`): the types of what answers carry. They type the handlers (a contract's `output`) and make the
 *   OpenAPI document; answers are not validated at run time.
 * A limit is declared once, as an action the document reads (maxLength through v.metadata where the check counts
 * characters, not UTF-16 units; a day's pattern through v.regex ahead of the calendar check, with the same message).
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { COORDINATE_DECIMALS, roundTo } from '../domain/geo.ts';
import { isCalendarDate } from '../domain/time.ts';
import { DAY_OR_DATETIME_PATTERN, DAY_PATTERN } from './wire.ts';

// ---- parameters

/** A parameter with its description for the OpenAPI document (what it means, in the words of docs/; the schema states the rules). */
export const described = <Schema extends v.GenericSchema>(schema: Schema, description: string) =>
  v.pipe(schema, v.description(description));

/** Text or a JSON number, as trimmed text: what every parameter is read as first. */
export const scalar = (message: string) =>
  v.pipe(
    v.union([v.string(), v.number()], message),
    v.transform((value) => String(value).trim()),
  );

const characterCount = (text: string): number => [...text].length;

/** At most `max` characters (code points, as JSON Schema's maxLength counts them). */
const maxCharacters = (name: string, max: number) =>
  [
    v.check<string, string>((text) => characterCount(text) <= max, `${name} is too long (max ${max} chars)`),
    v.metadata<string, { maxLength: number }>({ maxLength: max }),
  ] as const;

/** `${name} is required and must be an integer` for anything but a safe integer. */
export const requiredInteger = (name: string, message = `${name} is required and must be an integer`) =>
  v.pipe(scalar(message), v.regex(/^-?\d{1,16}$/, message), v.transform(Number), v.safeInteger(message));

/** Required text, trimmed, at most `max` characters. */
export const requiredText = (name: string, max: number) =>
  v.pipe(scalar(`${name} is required`), v.nonEmpty(`${name} is required`), ...maxCharacters(name, max));

/** A real calendar day written yyyy-mm-dd. */
export const requiredDate = (message: string) =>
  v.pipe(scalar(message), v.regex(DAY_PATTERN, message), v.check(isCalendarDate, message), v.metadata({ format: 'date' }));

/** Optional free text: absent stays undefined (edits keep the stored value); present is trimmed and bounded. */
/** Optional text: its pattern states it (any text up to the length), so tools without an example make a valid one. */
export const optionalText = (name: string, max: number) =>
  v.optional(v.pipe(scalar(`${name} must be text`), ...maxCharacters(name, max), v.metadata({ pattern: `^[\\s\\S]{0,${max}}$` })));

/** Optional integer (absent: undefined). */
export const optionalInteger = (name: string, message = `${name} must be an integer`) =>
  v.optional(v.pipe(scalar(message), v.regex(/^-?\d{1,16}$/, message), v.transform(Number), v.safeInteger(message)));

/** Optional 0/1 flag (active_flag, no_go, only_push). */
export const optionalFlag = (name: string) =>
  v.optional(v.pipe(scalar(`${name} must be 0 or 1`), v.picklist(['0', '1'], `${name} must be 0 or 1`), v.transform(Number)));

/** Decimal text as form clients write it: no exponent, no leading `+`. */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * A JSON number or decimal text, finite and at most `max` in magnitude, rounded to `decimals` places
 * (what is stored and answered). Every issue answers `message`, which names the parameter.
 */
export const decimalNumber = (message: string, decimals: number, max: number, rangeMessage = message) =>
  v.pipe(
    v.union([v.number(), v.string()], message),
    v.transform((value) => (typeof value === 'number' ? value : DECIMAL_TEXT.test(value.trim()) ? Number(value) : Number.NaN)),
    v.finite(message),
    v.transform((value) => roundTo(value, decimals)),
    v.minValue(-max, rangeMessage),
    v.maxValue(max, rangeMessage),
  );

/** Optional number (absent: undefined), rounded as decimalNumber does (radius, speed). */
export const optionalNumber = (name: string, decimals: number, max: number, message = `${name} must be numeric`) =>
  v.optional(decimalNumber(message, decimals, max));

/** A coordinate: `${name} is required and must be numeric`, then `${name} out of range`; kept to 7 decimals. */
export const coordinate = (name: 'latitude' | 'longitude', range = name === 'latitude' ? 90 : 180) =>
  decimalNumber(`${name} is required and must be numeric`, COORDINATE_DECIMALS, range, `${name} out of range`);

const MAX_WHOLE_DIGITS = 12;

/**
 * A decimal of 0 or more kept as text (money and quantities must not drift through floats):
 * `12.30` stays `12.30`; redundant leading zeros go (`007.50` is `7.50`). At most `decimals` places
 * and 12 whole digits, so every stored value still converts to a number exactly enough to compute with.
 */
export const decimalTextParameter = (name: string, decimals: number, message: string) =>
  v.pipe(
    scalar(message),
    v.regex(/^\d+(\.\d+)?$/, message),
    v.transform((text) => text.replace(/^0+(?=\d)/, '')),
    v.check((text) => (text.split('.')[1] ?? '').length <= decimals, `${name} may have at most ${decimals} decimals`),
    v.check(
      (text) => (text.split('.')[0] ?? '').length <= MAX_WHOLE_DIGITS,
      `${name} is too large (at most ${MAX_WHOLE_DIGITS} digits before the decimal point)`,
    ),
    v.metadata({ wire: decimalTextWire(decimals, false) }),
  );

/** A decimal text greater than 0 (see decimalTextParameter). */
export const positiveDecimal = (name: string, decimals: number, message: string) =>
  v.pipe(
    decimalTextParameter(name, decimals, message),
    v.check((text) => /[1-9]/.test(text), message),
    v.metadata({ wire: decimalTextWire(decimals, true) }),
  );

/** A decimal text parameter as the document states it: the text (whose leading zeros are dropped), or a JSON number. */
function decimalTextWire(decimals: number, positive: boolean): JsonSchema {
  const largest = 10 ** MAX_WHOLE_DIGITS - 10 ** -decimals;
  return {
    anyOf: [
      { type: 'string', pattern: `^${positive ? '(?=.*[1-9])' : ''}0*\\d{1,${MAX_WHOLE_DIGITS}}(\\.\\d{1,${decimals}})?$` },
      { type: 'number', ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }), maximum: largest },
    ],
  };
}

/** A datetime 'yyyy-mm-dd hh:mm:ss' or a date 'yyyy-mm-dd' (midnight), kept as entered. */
export const isDateTime = (text: string): boolean => {
  const match = /^(\d{4}-\d{2}-\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
  if (!match || !isCalendarDate(match[1] as string)) return false;
  if (match[2] === undefined) return true;
  return Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60;
};

/** A datetime 'yyyy-mm-dd hh:mm:ss' or a bare date; a bare date means its midnight, so the output is always 'yyyy-mm-dd hh:mm:ss'. */
export const dateTimeParameter = (message: string) =>
  v.pipe(
    scalar(message),
    v.regex(DAY_OR_DATETIME_PATTERN, message),
    v.check(isDateTime, message),
    v.transform((text) => (text.length === 10 ? `${text} 00:00:00` : text)),
  );

/** start_date and end_date of the user's calendar days (getTrips, getExpenseSlips, getFuelFillReport). */
export const dateRangeEntries = {
  start_date: described(
    requiredDate('start_date is required (yyyy-mm-dd)'),
    "First calendar day of the range, yyyy-mm-dd, in the user's GMT offset (included).",
  ),
  end_date: described(
    requiredDate('end_date is required (yyyy-mm-dd)'),
    "Last calendar day of the range, yyyy-mm-dd, in the user's GMT offset (included); not before start_date.",
  ),
};

export const startNotAfterEnd = <Input extends { start_date: string; end_date: string }>() =>
  v.check<Input, string>((input) => input.start_date <= input.end_date, 'start_date may not be after end_date');

// ---- fields

/** Ids, counts and whole seconds. */
export const integerField = v.pipe(v.number(), v.integer());

export const nullableTextField = v.nullable(v.string());

export const nullableNumberField = v.nullable(v.number());

/** 1 or 0 (active_flag, no_go, only_push). */
export const flagField = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1));

/** 'yyyy-mm-dd hh:mm:ss' */
export const dateTimeField = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/));

/** 'yyyy-mm-dd' */
export const dateField = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/));

/** Money and quantities as decimal text, never floats ('850.40'). */
export const decimalTextField = v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/));
