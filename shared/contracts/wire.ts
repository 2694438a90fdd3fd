/**
 * How parameters look on the wire, for the OpenAPI document, where valibot's actions cannot say it themselves:
 * the text forms of numbers and days (forms send everything as text) with the same bounds as the number, and
 * the JSON Schema of parameters whose rules live in code (stops, points). Patterns are JSON Schema's (ECMA-262).
 */
import type { JsonSchema } from '@valibot/to-json-schema';

/**
 * Calendar days of years 0001 to 9999: months of 31, 30 and 28 days, and 29 February in leap years (divisible by
 * 4 but not by 100, or by 400). Exact, so a tool making a value from the pattern makes a real day.
 */
const YEAR = '(000[1-9]|00[1-9]\\d|0[1-9]\\d{2}|[1-9]\\d{3})';
const LEAP_YEAR = '(\\d{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)';
const MONTH_DAY = '((0[13578]|1[02])-(0[1-9]|[12]\\d|3[01])|(0[469]|11)-(0[1-9]|[12]\\d|30)|02-(0[1-9]|1\\d|2[0-8]))';
const DAY_TEXT = `(${YEAR}-${MONTH_DAY}|${LEAP_YEAR}-02-29)`;
const TIME_TEXT = '([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d';

/** A day yyyy-mm-dd of years 0001-9999. */
export const DAY_PATTERN = new RegExp(`^${DAY_TEXT}$`);
/** A day, or a day and a time yyyy-mm-dd hh:mm:ss. */
export const DAY_OR_DATETIME_PATTERN = new RegExp(`^${DAY_TEXT}( ${TIME_TEXT})?$`);
/** A day, or nothing (an optional bound sent empty). */
export const DAY_OR_NOTHING_PATTERN = new RegExp(`^(${DAY_TEXT})?$`);
/** A day, or that day at midnight as a record reads it back. */
export const DAY_OR_MIDNIGHT_PATTERN = new RegExp(`^${DAY_TEXT}( 00:00:00)?$`);

/** Whole numbers 0..max as digits (leading zeros allowed): the classic digit-by-digit alternation. */
function wholeUpTo(max: number): string {
  const digits = String(max);
  const times = (count: number) => (count === 0 ? '' : count === 1 ? '\\d' : `\\d{${count}}`);
  const alternatives = [digits];
  if (digits.length > 1) alternatives.push(digits.length === 2 ? '\\d' : `\\d{1,${digits.length - 1}}`);
  for (let at = 0; at < digits.length; at++) {
    const digit = Number(digits[at]);
    if (digit === 0) continue;
    alternatives.push(`${digits.slice(0, at)}${digit === 1 ? '0' : `[0-${digit - 1}]`}${times(digits.length - at - 1)}`);
  }
  return `0*(${alternatives.join('|')})`;
}

/**
 * Decimal text from -max to max (from 0 when not `negative`, above 0 when `positive`): what the number branch of
 * the same parameter allows, so a validating proxy refuses `latitude=100` or `radius=0` as text too.
 */
export function decimalTextUpTo(max: number, { negative = true, positive = false } = {}): string {
  const magnitude = `(${wholeUpTo(max - 1)}(\\.\\d+)?|0*${max}(\\.0+)?)`;
  return `^${positive ? NOT_ZERO : ''}${negative ? '-?' : ''}${magnitude}$`;
}

/** Integer text from min (0 or 1, or -max) to max. */
export function integerTextUpTo(min: number, max: number): string {
  return `^${min === 1 ? NOT_ZERO : ''}${min < 0 ? '-?' : ''}(${wholeUpTo(max)})$`;
}

/** A look-ahead refusing text that is 0 however written (0, 000, 0.00). */
const NOT_ZERO = '(?!0*(\\.0*)?$)';

/** JSON text of an array, as a form sends it (and as a location record reads its points back). */
export const jsonText = (of: string): JsonSchema => ({
  type: 'string',
  contentMediaType: 'application/json',
  description: `${of} as JSON text`,
});

/** An Idempotency-Key: printable ASCII, as an HTTP header carries it; long enough for a UUID or a client's own request id. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
