/**
 * Times on screen are in the user's GMT offset (getAccount), as the API reads and answers the user's own dates (trips)
 * in it; feed times (events, live fixes) come in GMT+0 and are converted. A person may pick another offset to read
 * times in, kept in the browser; before the account is read (or if it cannot be), the browser's own.
 */
const OFFSET_KEY = 'fleet-console.offset-minutes';
let accountOffset: number | undefined;

/** The signed-in user's offset, from getAccount: the default of every time shown. */
export function setAccountOffset(minutes: number): void {
  accountOffset = minutes;
}

export const accountOffsetMinutes = (): number | undefined => accountOffset;

/** The offset the person picked instead of their account's; null: the account's. */
export function pickedOffset(): number | null {
  const kept = localStorage.getItem(OFFSET_KEY);
  return kept === null ? null : Number(kept);
}

export function pickOffset(minutes: number | null): void {
  if (minutes === null) localStorage.removeItem(OFFSET_KEY);
  else localStorage.setItem(OFFSET_KEY, String(minutes));
}

export const offsetMinutes = (): number => pickedOffset() ?? accountOffset ?? -new Date().getTimezoneOffset();

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
