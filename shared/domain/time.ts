/**
 * Times are stored as UTC ISO strings. Users see their own offset: date-range inputs are the
 * user's calendar days and trip, fill and job-card times are shown in the user's offset.
 */
const MINUTE_MS = 60_000;

/** Text shaped as toISOString writes an instant at UTC (yyyy-mm-ddThh:mm:ss.sssZ). */
const ISO_INSTANT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** The days of a month of the proleptic Gregorian calendar, as a Date counts them. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Whether the text is an instant as stored (toISOString's text) naming a real day: read at UTC, its text already is
 * its 'yyyy-mm-dd hh:mm:ss'. A day the month lacks (a 30 February) is left to a Date, which rolls it over into the
 * next month; days past the 28th are checked, not refused (the last days of every month took the slow way).
 */
function isStoredInstant(text: string): boolean {
  if (!ISO_INSTANT.test(text)) return false;
  const day = Number(text.slice(8, 10));
  return day <= 28 || day <= daysInMonth(Number(text.slice(0, 4)), Number(text.slice(5, 7)));
}

/** 'yyyy-mm-dd hh:mm:ss' of an instant, shifted by an offset in minutes. */
export function formatDateTime(instant: string | Date, offsetMinutes = 0): string {
  // a history's every point at UTC (getPositions): its text, without a Date made and formatted for each
  if (offsetMinutes === 0 && typeof instant === 'string' && isStoredInstant(instant)) {
    return `${instant.slice(0, 10)} ${instant.slice(11, 19)}`;
  }
  const ms = (typeof instant === 'string' ? Date.parse(instant) : instant.getTime()) + offsetMinutes * MINUTE_MS;
  // outside the 4-digit years (and for no instant at all) the calendar writes it, or throws as it always did
  if (!(ms >= FIRST_INSTANT_MS && ms <= LAST_INSTANT_MS)) return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const day = Math.floor(ms / DAY_MS);
  const second = Math.floor((ms - day * DAY_MS) / 1000);
  return `${dayText(day)} ${twoDigits(Math.floor(second / 3600))}:${twoDigits(Math.floor(second / 60) % 60)}:${twoDigits(second % 60)}`;
}

const DAY_MS = 1440 * MINUTE_MS;
const twoDigits = (value: number): string => (value < 10 ? `0${value}` : String(value));

/**
 * The day last written, remembered: a page's times in the user's offset (job cards, trips, deliveries) mostly share
 * their days, and a Date made and written for each time cost three times as much (0.6 µs a time, now 0.2).
 */
let lastDay = { day: Number.NaN, text: '' };

/** 'yyyy-mm-dd' of a day counted from 1970-01-01. */
function dayText(day: number): string {
  if (lastDay.day !== day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

/**
 * Stored instants are 4-digit-year ISO text (keys compare as text), so a bound beyond them is clamped
 * to them: `9999-12-31` west of GMT or `0001-01-01` east of it still means "no end" / "no start",
 * instead of a '+010000-…' or '-000001-…' key that sorts on the wrong side of every record.
 */
const FIRST_INSTANT_MS = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

const storedInstant = (ms: number): string => new Date(Math.min(Math.max(ms, FIRST_INSTANT_MS), LAST_INSTANT_MS)).toISOString();

/** The UTC instants that bound the user's calendar days start_date..end_date (inclusive), for any yyyy-mm-dd and offset. */
export function userDayRange(startDate: string, endDate: string, offsetMinutes: number): { from: string; to: string } {
  const startMs = Date.parse(`${startDate}T00:00:00.000Z`) - offsetMinutes * MINUTE_MS;
  const endMs = Date.parse(`${endDate}T23:59:59.999Z`) - offsetMinutes * MINUTE_MS;
  return { from: storedInstant(startMs), to: storedInstant(endMs) };
}

/** Whole days from one yyyy-mm-dd to another, counting both ends. */
export function inclusiveDayCount(startDate: string, endDate: string): number {
  return (Date.parse(endDate) - Date.parse(startDate)) / (24 * 60 * MINUTE_MS) + 1;
}

/** A real calendar day written yyyy-mm-dd, of the years 0001 to 9999 (there is no year 0 in the calendar people write). */
export const isCalendarDate = (text: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year === 0) return false;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

const PARSED_INSTANTS = 256;
const parsedInstants = new Map<string, number>();

/**
 * Date.parse of an ISO instant, remembered (up to PARSED_INSTANTS, then forgotten at once): detection compares each
 * fix's instant with its neighbours' several times over (getPositions checks a day of fixes per call), and a lookup
 * costs a fraction of a parse.
 */
export function instantMs(at: string): number {
  let ms = parsedInstants.get(at);
  if (ms === undefined) {
    if (parsedInstants.size >= PARSED_INSTANTS) parsedInstants.clear();
    ms = Date.parse(at);
    parsedInstants.set(at, ms);
  }
  return ms;
}

/** Seconds from one ISO instant to another (negative when `to` is earlier). */
export const secondsBetween = (from: string, to: string): number => (instantMs(to) - instantMs(from)) / 1000;
