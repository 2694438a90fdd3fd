/**
 * Times on screen are in the person's GMT offset. The API answers the user's own times (trips, positions) in that offset
 * and feed times (events, live fixes) in GMT+0; the offset is the person's choice, kept in the tab (default: the browser's).
 */
const OFFSET_KEY = 'fleet-console.offset-minutes';

export function offsetMinutes(): number {
  const kept = sessionStorage.getItem(OFFSET_KEY) ?? localStorage.getItem(OFFSET_KEY);
  return kept === null ? -new Date().getTimezoneOffset() : Number(kept);
}

export function setOffsetMinutes(minutes: number): void {
  localStorage.setItem(OFFSET_KEY, String(minutes));
}

export const offsetLabel = (minutes = offsetMinutes()): string => {
  const sign = minutes < 0 ? '-' : '+';
  const hours = Math.floor(Math.abs(minutes) / 60);
  const rest = Math.abs(minutes) % 60;
  return `GMT${sign}${hours}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
};

/** 'yyyy-mm-dd hh:mm:ss' of an instant (ms) in the given offset. */
export const wallTime = (instant: number, minutes = offsetMinutes()): string =>
  new Date(instant + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');

/** The instant (ms) of a 'yyyy-mm-dd hh:mm:ss' read in the given offset. */
export const instantOf = (text: string, minutes = 0): number => Date.parse(`${text.replace(' ', 'T')}Z`) - minutes * 60_000;

/** A GMT+0 'yyyy-mm-dd hh:mm:ss' from the API, shown in the person's offset. */
export const fromGmt = (text: string | null | undefined): string => (text ? wallTime(instantOf(text, 0)) : '—');

export const today = (): string => wallTime(Date.now()).slice(0, 10);

export const daysBefore = (day: string, days: number): string => new Date(Date.parse(day) - days * 86_400_000).toISOString().slice(0, 10);
