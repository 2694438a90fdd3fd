/**
 * Zone and speeding events (docs/events.md), decided from a vehicle's cleaned points: a walk over them, oldest
 * first, that is a pure function of the points, the zones and the settings. It starts from the state stored with
 * the detection checkpoint its hour starts from, so re-detection after late points walks the same history and
 * decides the same facts; what a late point changes is found by walking the window with and without the new
 * points (zoneFacts). A 0,0 fix, an invalid fix or a jump never makes or moves an event (the detector's fault rules).
 */
import { type LatLng, roundTo } from '../geo.ts';
import { secondsBetween } from '../time.ts';
import { fixFault, jumpVerdict } from '../tracking/faults.ts';
import { hourOf } from '../tracking/history.ts';
import type { Position } from '../tracking/position.ts';
import type { DetectionSettings } from '../tracking/settings.ts';
import type { UserLocation } from '../user-location.ts';
import { changedFacts } from './detection-events.ts';
import { type DecidedEvent, eventIdOf } from './event.ts';
import type { EventSettings } from './settings.ts';
import { beyondMargin, segmentCrossing, type ZoneIndex, zoneContains } from './zone-index.ts';

/** The per-vehicle settings the zone events read (docs/events.md, "Settings"). */
export interface ZoneSettings {
  /** a stay must last this long before `entered` fires (stamped at the real entry) */
  dwellS: number;
  /** speeding starts, and ends, once it has lasted this long */
  speedingMinS: number;
  /** the vehicle's own limit outside speed-limited zones; 0: none */
  speedLimitKmh: number;
  /** faster than this between fixes is a jump (the detector's rule) */
  maxSpeedKmh: number;
}

/** The zone settings of a vehicle: its event settings (shared/domain/events/settings.ts) and the detector's jump speed. */
export function zoneSettingsOf(settings: DetectionSettings, events: EventSettings): ZoneSettings {
  return {
    dwellS: events.dwell,
    speedingMinS: events.speedingMinS,
    speedLimitKmh: events.speedLimitKmh,
    maxSpeedKmh: settings.maxSpeedKmh,
  };
}

/** Two consecutive fixes further apart than this are never joined by a straight path. */
export const MAX_INTERPOLATION_GAP_S = 600;

interface Fix extends LatLng {
  at: string;
}

/** A stay in a zone since its entry; announced once `entered` fired (at once, or after the dwell). */
interface Stay extends Fix {
  uid: number;
  announced: boolean;
}

/** The first fix above the limit, and the limit then. */
interface Above extends Fix {
  speed: number;
  limit: number;
  zoneUid: number | null;
  max: number;
}

/** What the walk carries from one point to the next: stored with each detection checkpoint. */
export interface ZoneState {
  last: Fix | null;
  jumps: Fix[];
  stays: Stay[];
  above: Above | null;
  speeding: { start: Above; below: Fix | null } | null;
}

export const initialZoneState = (): ZoneState => ({ last: null, jumps: [], stays: [], above: null, speeding: null });

/** A zone or speeding event, and the instant of the point that decided it (a dwell or speedingMinS after it occurred). */
export interface ZoneFact {
  decidedAt: string;
  event: DecidedEvent;
}

export interface ZoneWalk {
  state: ZoneState;
  facts: ZoneFact[];
  /** the state before each hour's first point, as the detection checkpoints hold it */
  checkpoints: Map<string, ZoneState>;
}

const coordinate = (value: number): number => roundTo(value, 6);
const kmh = (value: number): number => roundTo(value, 1);

function zoneEvent(zone: UserLocation, entered: boolean, at: Fix, interpolated: boolean): DecidedEvent {
  const kind = zone.noGo ? 'no_go' : 'geofence';
  return {
    type: `${kind}.${entered ? 'entered' : 'exited'}`,
    occurredAt: at.at,
    subject: `zone:${zone.userLocationUid}`,
    latitude: coordinate(at.lat),
    longitude: coordinate(at.lng),
    fields: {
      user_location_uid: zone.userLocationUid,
      description: zone.description,
      speed: zone.speedLimit,
      only_push: zone.onlyPush ? 1 : 0,
      interpolated: interpolated ? 1 : 0,
    },
  };
}

const along = (from: Fix, to: Fix, share: number): Fix => {
  const ms = Date.parse(from.at) + share * (Date.parse(to.at) - Date.parse(from.at));
  // whole seconds, as GPS times are: the same crossing always gets the same instant
  return {
    at: new Date(Math.round(ms / 1000) * 1000).toISOString(),
    lat: from.lat + share * (to.lat - from.lat),
    lng: from.lng + share * (to.lng - from.lng),
  };
};

/** Walks the points (oldest first) from the state, deciding zone and speeding events. */
export function walkZones(start: ZoneState, points: readonly Position[], zones: ZoneIndex, settings: ZoneSettings): ZoneWalk {
  const state = structuredClone(start);
  const facts: ZoneFact[] = [];
  const checkpoints = new Map<string, ZoneState>();
  for (const position of points) {
    const hour = hourOf(position.gps_datetime);
    if (!checkpoints.has(hour)) checkpoints.set(hour, structuredClone(state));
    const fix: Fix = { at: position.gps_datetime, lat: position.latitude, lng: position.longitude };
    if (state.last && fix.at <= state.last.at) continue;
    if (fixFault(position)) continue;
    const jump = jumpVerdict(state.last, state.jumps, fix, settings.maxSpeedKmh);
    if (jump.verdict === 'jump') {
      state.jumps = jump.run;
      continue;
    }
    state.jumps = [];
    const previous = jump.verdict === 'relocated' ? null : state.last;
    const decided = [...stepZones(state, previous, fix, zones, settings)];
    if (position.speed !== null) decided.push(...stepSpeeding(state, fix, position.speed, zones, settings));
    facts.push(...decided.map((event) => ({ decidedAt: fix.at, event })));
    state.last = fix;
  }
  return { state, facts, checkpoints };
}

function stepZones(state: ZoneState, previous: Fix | null, fix: Fix, zones: ZoneIndex, settings: ZoneSettings): DecidedEvent[] {
  const events: DecidedEvent[] = [];
  const stayedIn = new Set(state.stays.map((stay) => stay.uid));
  const stays: Stay[] = [];
  for (const stay of state.stays) {
    const zone = zones.zone(stay.uid);
    // a deleted zone ends its stay without an event: edits change events from then on
    if (!zone) continue;
    if (beyondMargin(zone, fix)) {
      if (stay.announced) events.push(zoneEvent(zone, false, fix, false));
      continue;
    }
    if (!stay.announced && secondsBetween(stay.at, fix.at) >= settings.dwellS) {
      stay.announced = true;
      events.push(zoneEvent(zone, true, stay, false));
    }
    stays.push(stay);
  }
  const sparse = previous !== null && secondsBetween(previous.at, fix.at) <= MAX_INTERPOLATION_GAP_S;
  for (const zone of zones.near(previous ?? fix, fix)) {
    if (stayedIn.has(zone.userLocationUid)) continue;
    if (zoneContains(zone, fix)) {
      const announced = settings.dwellS <= 0;
      stays.push({ uid: zone.userLocationUid, ...fix, announced });
      if (announced) events.push(zoneEvent(zone, true, fix, false));
      continue;
    }
    const crossing = sparse && previous ? segmentCrossing(zone, previous, fix) : undefined;
    if (!crossing || !previous) continue;
    const entry = along(previous, fix, crossing.enter);
    const exit = along(previous, fix, crossing.exit);
    if (secondsBetween(entry.at, exit.at) < settings.dwellS) continue;
    events.push(zoneEvent(zone, true, entry, true), zoneEvent(zone, false, exit, true));
  }
  state.stays = stays;
  return events;
}

/** The lowest speed limit of the zones the vehicle is in, else its own (0: none). */
function limitAt(state: ZoneState, zones: ZoneIndex, settings: ZoneSettings): { limit: number; zoneUid: number | null } {
  let best: { limit: number; zoneUid: number | null } = { limit: settings.speedLimitKmh, zoneUid: null };
  let zoneLimit = Number.POSITIVE_INFINITY;
  for (const stay of state.stays) {
    const zone = zones.zone(stay.uid);
    if (zone && zone.speedLimit > 0 && zone.speedLimit < zoneLimit) {
      zoneLimit = zone.speedLimit;
      best = { limit: zone.speedLimit, zoneUid: zone.userLocationUid };
    }
  }
  return best;
}

function stepSpeeding(state: ZoneState, fix: Fix, speed: number, zones: ZoneIndex, settings: ZoneSettings): DecidedEvent[] {
  const { limit, zoneUid } = limitAt(state, zones, settings);
  const over = limit > 0 && speed > limit;
  if (state.speeding) {
    const { start } = state.speeding;
    if (over) {
      start.max = Math.max(start.max, speed);
      state.speeding.below = null;
      return [];
    }
    state.speeding.below ??= fix;
    const below = state.speeding.below;
    if (secondsBetween(below.at, fix.at) < settings.speedingMinS) return [];
    state.speeding = null;
    return [
      speedingEvent('speeding.ended', start, below, {
        max_speed_kmh: kmh(start.max),
        duration_s: Math.round(secondsBetween(start.at, below.at)),
      }),
    ];
  }
  if (!over) {
    state.above = null;
    return [];
  }
  state.above ??= { ...fix, speed, limit, zoneUid, max: speed };
  const above = state.above;
  above.max = Math.max(above.max, speed);
  if (secondsBetween(above.at, fix.at) < settings.speedingMinS) return [];
  state.above = null;
  state.speeding = { start: above, below: null };
  return [speedingEvent('speeding.started', above, above, { speed_kmh: kmh(above.speed) })];
}

function speedingEvent(type: 'speeding.started' | 'speeding.ended', start: Above, at: Fix, figures: Record<string, number>): DecidedEvent {
  return {
    type,
    occurredAt: at.at,
    subject: `speeding:${start.at}`,
    latitude: coordinate(at.lat),
    longitude: coordinate(at.lng),
    fields: { limit_kmh: start.limit, ...figures, user_location_uid: start.zoneUid },
  };
}

/**
 * What a batch's walk changes against the stored facts decided in the same window (from the checkpoint on): the
 * events to emit (facts not stored, and event.voided for stored facts no longer found), and the fact items to write
 * and delete. The stored facts are written in the detection's commit, so a batch that failed half-way, whose points
 * were stored without its events, is compared with what was really emitted.
 */
export interface ZoneChange {
  events: DecidedEvent[];
  put: ZoneFact[];
  remove: ZoneFact[];
}

export function zoneChanges(vehicleUid: number, stored: readonly ZoneFact[], found: readonly ZoneFact[]): ZoneChange {
  const key = (fact: ZoneFact) => `${eventIdOf(vehicleUid, fact.event)}#${fact.decidedAt}`;
  const storedKeys = new Set(stored.map(key));
  const foundKeys = new Set(found.map(key));
  return {
    events: changedFacts(vehicleUid, { before: stored.map(({ event }) => event), after: found.map(({ event }) => event) }, (event) => [
      event,
    ]),
    put: found.filter((fact) => !storedKeys.has(key(fact))),
    remove: stored.filter((fact) => !foundKeys.has(key(fact))),
  };
}
