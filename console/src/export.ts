/** Trips as CSV and a trip as GPX, made in the browser from what the API answered. */
import { instantOf } from './time.ts';
import type { Position, Trip } from './types.ts';

const TRIP_COLUMNS: (keyof Trip)[] = [
  'trip_uid',
  'start_time',
  'stop_time',
  'distance',
  'duration',
  'max_speed',
  'start_location',
  'stop_location',
  'driver_name',
];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export const tripsCsv = (vehicle: string, trips: Trip[]): string =>
  [['vehicle', ...TRIP_COLUMNS], ...trips.map((trip) => [vehicle, ...TRIP_COLUMNS.map((column) => trip[column])])]
    .map((row) => row.map(csvField).join(','))
    .join('\r\n')
    .concat('\r\n');

const xml = (text: string): string => text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);

/** GPX 1.1, one track, times in UTC as getPositions answers them. */
export function tripGpx(name: string, positions: Position[]): string {
  const points = positions
    .filter((position) => !position.ignored)
    .map(
      (position) =>
        `<trkpt lat="${position.latitude}" lon="${position.longitude}">` +
        `<time>${new Date(instantOf(position.gps_datetime)).toISOString()}</time>` +
        `${position.speed === null ? '' : `<extensions><speed>${(position.speed / 3.6).toFixed(2)}</speed></extensions>`}</trkpt>`,
    );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Fleet console" xmlns="http://www.topografix.com/GPX/1/1">\n' +
    `<trk><name>${xml(name)}</name><trkseg>\n${points.join('\n')}\n</trkseg></trk>\n</gpx>\n`
  );
}
