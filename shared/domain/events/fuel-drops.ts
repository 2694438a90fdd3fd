/**
 * `fuel.dropped` (docs/events.md): the vehicle's cleaned fuel level — readings no tank holds and falls that come
 * back (dropouts) already taken out by the detector, then median-filtered — falls by at least fuelDropMinL within
 * fuelDropWindowS and stays down. A step of the detector: its state rides in the detector's state, so re-detection
 * from a checkpoint finds the same drops whatever order the points came in.
 */
import { roundTo } from '../geo.ts';
import { secondsBetween } from '../time.ts';
import type { DecidedEvent } from './event.ts';
import type { EventSettings } from './settings.ts';

export type FuelDropSettings = Pick<EventSettings, 'fuelDropMinL' | 'fuelDropWindowS'>;

/** A level the fall may start from: a point whose own reading agreed with the filtered level. */
interface Top {
  at: string;
  level: number;
  lat: number;
  lng: number;
}

/** What the drop step carries from one point to the next. */
export interface FuelDropState {
  /** candidate starts within the window, oldest (and highest) first: each lower than the one before it */
  tops: Top[];
  /** since when the readings have stood below the level (the filter shows a fall only once they stay down) */
  lowSince: string | null;
  /** the last point at which the vehicle moved */
  lastMovingAt: string | null;
  /** a fall seen, until the level settles (a drop) or comes back (none); moving: the vehicle moved while it fell */
  fall: { before: Top; lowest: number; lastFallAt: string; moving: boolean } | null;
}

export interface DetectedDrop {
  /** the start of the level's change: the last point still at the level before */
  at: string;
  latitude: number;
  longitude: number;
  levelBefore: number;
  levelAfter: number;
  dropQty: number;
  /** the vehicle moved while the level fell */
  moving: boolean;
}

/** The point the step reads: when and where, the filtered level, the point's own reading, and whether it moved. */
export interface FuelPoint {
  at: string;
  lat: number;
  lng: number;
  /** the median-filtered level (null while the filter fills) */
  level: number | null;
  /** this point's reading in litres, dropout or not (null: none) */
  reading: number | null;
  moving: boolean;
}

/** A level that holds this long without falling further is where the fall ended. */
export const DROP_SETTLE_S = 300;
/** Level steps smaller than this share of fuelDropMinL are the sensor's noise after the filter. */
const NOISE_SHARE = 1 / 4;

export const initialFuelDropState = (): FuelDropState => ({ tops: [], lowSince: null, lastMovingAt: null, fall: null });

/** One point through the drop step: a drop when a fall settles. Mutates `state`. */
export function trackFuelDrop(state: FuelDropState, point: FuelPoint, settings: FuelDropSettings): DetectedDrop | null {
  if (point.moving) state.lastMovingAt = point.at;
  if (point.level === null) return null;
  const margin = settings.fuelDropMinL * NOISE_SHARE;
  const here: Top = { at: point.at, level: point.level, lat: point.lat, lng: point.lng };
  const fall = state.fall;
  if (fall) {
    if (point.level >= fall.before.level - settings.fuelDropMinL / 2) {
      // it came back: a slosh or a slope, not fuel gone
      restartAt(state, here);
      return null;
    }
    if (point.level < fall.lowest - margin) {
      fall.lastFallAt = point.at;
      fall.moving ||= movedSince(state, fall.before);
    }
    fall.lowest = Math.min(fall.lowest, point.level);
    if (secondsBetween(fall.lastFallAt, point.at) < DROP_SETTLE_S) return null;
    const drop = fall.before.level - point.level >= settings.fuelDropMinL ? dropOf(fall, point.level) : null;
    restartAt(state, here);
    return drop;
  }
  if (point.reading !== null) state.lowSince = point.reading < point.level - margin ? (state.lowSince ?? point.at) : null;
  // The window runs from the first reading below the level: the filter and the dropout rule show a fall late.
  const windowStart = Date.parse(state.lowSince ?? point.at) - settings.fuelDropWindowS * 1000;
  state.tops = state.tops.filter((top) => Date.parse(top.at) >= windowStart);
  const top = state.tops[0];
  if (top && top.level - point.level >= settings.fuelDropMinL) {
    state.fall = { before: top, lowest: point.level, lastFallAt: point.at, moving: movedSince(state, top) };
    state.tops = [];
    return null;
  }
  if (point.reading !== null && Math.abs(point.reading - point.level) <= margin) {
    // an earlier start at about this level or lower is never the start of a fall this one is not
    while ((state.tops.at(-1)?.level ?? Number.POSITIVE_INFINITY) <= point.level + margin / 2) state.tops.pop();
    state.tops.push(here);
  }
  return null;
}

function restartAt(state: FuelDropState, here: Top): void {
  state.fall = null;
  state.lowSince = null;
  state.tops = [here];
}

const movedSince = (state: FuelDropState, top: Top): boolean => state.lastMovingAt !== null && state.lastMovingAt > top.at;

function dropOf({ before, moving }: NonNullable<FuelDropState['fall']>, after: number): DetectedDrop {
  return {
    at: before.at,
    latitude: before.lat,
    longitude: before.lng,
    levelBefore: before.level,
    levelAfter: after,
    dropQty: before.level - after,
    moving,
  };
}

/** Where drops found after a checkpoint with this state may begin: the oldest start it still holds. */
export function dropSpanStart(state: FuelDropState | undefined): string | undefined {
  return state?.fall?.before.at ?? state?.tops[0]?.at;
}

/** fuel.dropped at the start of the level's fall, levels to 0.1 L. */
export function dropEvents(drop: DetectedDrop): DecidedEvent[] {
  return [
    {
      type: 'fuel.dropped',
      occurredAt: drop.at,
      subject: 'fuel-drop',
      latitude: drop.latitude,
      longitude: drop.longitude,
      fields: {
        drop_qty: roundTo(drop.dropQty, 1),
        fuel_level_before: roundTo(drop.levelBefore, 1),
        fuel_level_after: roundTo(drop.levelAfter, 1),
        moving: drop.moving ? 1 : 0,
      },
    },
  ];
}
