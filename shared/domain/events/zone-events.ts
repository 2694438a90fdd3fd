/**
 * Zone and speeding events (docs/events.md, "Zones and speeding"), decided from a vehicle's cleaned points: a walk
 * over them, oldest first, that is a pure function of the points, the zones, the settings and the facts already
 * told. Each linked user's zones are walked apart, so a zone event, and speeding under a zone's limit, is that user's
 * fact (its `audience`); speeding above the vehicle's own limit is the vehicle's, decided once whatever the users'
 * zones. The walk starts from the state stored with the detection checkpoint its hour starts from, so re-detection
 * after late points walks the same history and decides the same facts; what a late point changes is found by
 * walking the window with and without the new points (zoneChanges). A fact told under a zone's earlier definition
 * stands (toldZones). A 0,0 fix, an invalid fix or a jump never makes or moves an event (the detector's fault rules).
 */
import { createHash } from 'node:crypto';
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
  /** the vehicle's own limit, everywhere, whatever the users' zones; 0: none */
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

/** Speeding under one source of limits: the first fix above the limit not yet lasting speedingMinS, or an episode. */
interface SpeedingState {
  above: Above | null;
  speeding: { start: Above; below: Fix | null } | null;
}

/** One user's part of the walk: the user's zones the vehicle is in, and speeding under their limits. */
interface UserZoneState extends SpeedingState {
  stays: Stay[];
}

/**
 * What the walk carries from one point to the next: stored with each detection checkpoint (`zone_state`). The fault
 * rules' memory is the vehicle's; stays and zone speeding are each user's; speeding above the vehicle's own limit is
 * the vehicle's.
 */
export interface ZoneState {
  last: Fix | null;
  jumps: Fix[];
  vehicle: SpeedingState;
  /** by user uid */
  users: Record<string, UserZoneState>;
}

/** The state as checkpoints written before the walk was per user hold it: every linked user's zones merged. */
interface MergedZoneState extends SpeedingState {
  last: Fix | null;
  jumps: Fix[];
  stays: Stay[];
}

/** What a checkpoint's `zone_state` holds: today's state, or the merged one older checkpoints hold. */
export type StoredZoneState = ZoneState | MergedZoneState;

const noSpeeding = (): SpeedingState => ({ above: null, speeding: null });
const initialUserState = (): UserZoneState => ({ stays: [], ...noSpeeding() });

export const initialZoneState = (): ZoneState => ({ last: null, jumps: [], vehicle: noSpeeding(), users: {} });

/** A linked user's zones, indexed: what the user's part of the walk reads. */
export interface UserZones {
  userUid: number;
  index: ZoneIndex;
}

/** A zone or speeding event, and the instant of the point that decided it (a dwell or speedingMinS after it occurred). */
export interface ZoneFact {
  decidedAt: string;
  /** a user's fact carries the user as its audience; a vehicle fact (speeding above the vehicle's own limit) none */
  event: DecidedEvent;
  /**
   * the version of the zone's definition it was decided with (zoneVersionOf); absent on vehicle facts and on items
   * stored before versions
   */
  zone?: string;
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

/**
 * Walks the points (oldest first) from the state, deciding each linked user's zone events and speeding under the
 * user's zone limits, and the vehicle's speeding above its own limit. `stored` are the facts already told from the
 * state's hour on: those of a zone edited or deleted since stand as told (toldZones).
 */
export function walkZones(
  start: StoredZoneState,
  points: readonly Position[],
  zones: readonly UserZones[],
  settings: ZoneSettings,
  stored: readonly ZoneFact[] = [],
): ZoneWalk {
  const state = zoneStateFor(start, zones);
  const told = toldZones(stored, zones);
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
    for (const { userUid, index } of zones) {
      const user = state.users[userUid] as UserZoneState;
      told.resume(userUid, user, fix);
      const decided = stepZones(user, previous, fix, index, settings);
      if (position.speed !== null) decided.push(...stepSpeeding(user, fix, position.speed, zoneLimitAt(user, index), settings));
      for (const event of decided) {
        if (!told.covers(event, fix)) facts.push(userFact(fix, event, userUid, index));
      }
    }
    if (position.speed !== null) {
      const vehicleLimit = { limit: settings.speedLimitKmh, zoneUid: null };
      facts.push(
        ...stepSpeeding(state.vehicle, fix, position.speed, vehicleLimit, settings).map((event) => ({ decidedAt: fix.at, event })),
      );
    }
    state.last = fix;
  }
  return { state, facts, checkpoints };
}

const zoneUidOf = (event: DecidedEvent): number | null => (event.fields.user_location_uid as number | null | undefined) ?? null;

function userFact(fix: Fix, event: DecidedEvent, userUid: number, index: ZoneIndex): ZoneFact {
  const zone = index.zone(zoneUidOf(event) as number);
  return { decidedAt: fix.at, event: { ...event, audience: userUid }, ...(zone ? { zone: zoneVersionOf(zone) } : {}) };
}

const versions = new WeakMap<UserLocation, string>();

/**
 * A zone's version as its events see it: an edit of what decides or fills them (place, shape, name, speed, no_go,
 * only_push) gives another; of its colour or icon, none.
 */
function zoneVersionOf(zone: UserLocation): string {
  let version = versions.get(zone);
  if (version === undefined) {
    const { latitude, longitude, radiusKm, locationType, points, description, speedLimit, noGo, onlyPush } = zone;
    const decides = [latitude, longitude, radiusKm, locationType, points, description, speedLimit, noGo, onlyPush];
    version = createHash('sha256').update(JSON.stringify(decides), 'utf8').digest('hex').slice(0, 16);
    versions.set(zone, version);
  }
  return version;
}

/** The user whose zone this is, among the vehicle's users (undefined: a zone since deleted, or of an unlinked user). */
const ownerOf = (zoneUid: number, zones: readonly UserZones[]): UserZones | undefined => zones.find(({ index }) => index.zone(zoneUid));

/**
 * The walk's state for the vehicle's users now: each user's part as stored (a user linked since starts with none),
 * or, from a checkpoint written before the walk was per user, the merged state split by each zone's owner (a stay or
 * zone speeding of a deleted zone ends, as a deletion ends it; speeding with no zone is the vehicle's).
 */
function zoneStateFor(start: StoredZoneState, zones: readonly UserZones[]): ZoneState {
  const stored = structuredClone(start);
  if ('users' in stored) {
    const users = zones.map(({ userUid }) => [userUid, stored.users[userUid] ?? initialUserState()]);
    return { ...stored, users: Object.fromEntries(users) };
  }
  const users = zones.map((owner) => {
    const owns = (zoneUid: number | null) => zoneUid !== null && ownerOf(zoneUid, zones) === owner;
    return [owner.userUid, { stays: stored.stays.filter((stay) => owns(stay.uid)), ...speedingOf(stored, owns) }];
  });
  const vehicle = speedingOf(stored, (zoneUid) => zoneUid === null);
  return { last: stored.last, jumps: stored.jumps, vehicle, users: Object.fromEntries(users) };
}

function speedingOf(merged: SpeedingState, belongs: (zoneUid: number | null) => boolean): SpeedingState {
  return {
    above: merged.above && belongs(merged.above.zoneUid) ? merged.above : null,
    speeding: merged.speeding && belongs(merged.speeding.start.zoneUid) ? merged.speeding : null,
  };
}

/** The facts told under a zone's earlier definition, by the zone: until when they stand, and the last of each kind. */
interface ToldZone {
  audience: number | undefined;
  until: string;
  lastZoneEvent?: DecidedEvent;
  lastSpeeding?: DecidedEvent;
}

/**
 * History as it was told (docs/events.md, "Editing or deleting a zone"): a stored fact whose zone was edited or
 * deleted since it was decided stands; the walk decides nothing more of that zone up to the last such fact's point,
 * and from the next point on judges the zone as it is now, from where those facts left it (in the zone after an
 * `entered`, speeding after a `started`).
 */
function toldZones(stored: readonly ZoneFact[], zones: readonly UserZones[]) {
  const byZone = new Map<number, ToldZone>();
  const ordered = [...stored].sort(
    (a, b) => a.decidedAt.localeCompare(b.decidedAt) || a.event.occurredAt.localeCompare(b.event.occurredAt),
  );
  for (const fact of ordered) {
    const zoneUid = zoneUidOf(fact.event);
    if (zoneUid === null || !toldBefore(fact, zones)) continue;
    const told = byZone.get(zoneUid) ?? { audience: fact.event.audience ?? ownerOf(zoneUid, zones)?.userUid, until: fact.decidedAt };
    told.until = fact.decidedAt;
    if (fact.event.type.startsWith('speeding.')) told.lastSpeeding = fact.event;
    else told.lastZoneEvent = fact.event;
    byZone.set(zoneUid, told);
  }
  const resumed = new Set<number>();
  return {
    /** the walk's events of a told zone up to its last told fact are the told ones */
    covers: (event: DecidedEvent, fix: Fix): boolean => {
      const told = byZone.get(zoneUidOf(event) ?? Number.NaN);
      return told !== undefined && fix.at <= told.until;
    },
    /** at the first point after a told zone's last told fact, the user's state is where the told facts left it */
    resume: (userUid: number, state: UserZoneState, fix: Fix): void => {
      for (const [zoneUid, told] of byZone) {
        if (told.audience !== userUid || resumed.has(zoneUid) || fix.at <= told.until) continue;
        resumed.add(zoneUid);
        resumeFrom(state, zoneUid, told);
      }
    },
  };
}

/** Whether a stored fact was decided under a definition of its zone that is no longer current (or a zone since deleted). */
function toldBefore(fact: ZoneFact, zones: readonly UserZones[]): boolean {
  const zoneUid = zoneUidOf(fact.event) as number;
  const zone = ownerOf(zoneUid, zones)?.index.zone(zoneUid);
  if (!zone) return true;
  if (fact.zone !== undefined) return fact.zone !== zoneVersionOf(zone);
  // stored before versions: what its event copied of the zone tells whether the zone changed
  const { fields, type } = fact.event;
  if (type.startsWith('speeding.')) return fields.limit_kmh !== zone.speedLimit;
  const copied = zoneEvent(zone, type.endsWith('.entered'), { at: '', lat: 0, lng: 0 }, false);
  return copied.type !== type || ['description', 'speed', 'only_push'].some((field) => copied.fields[field] !== fields[field]);
}

function resumeFrom(state: UserZoneState, zoneUid: number, told: ToldZone): void {
  const entered = told.lastZoneEvent?.type.endsWith('.entered');
  if (told.lastZoneEvent) state.stays = state.stays.filter((stay) => stay.uid !== zoneUid);
  if (entered && told.lastZoneEvent) state.stays.push({ uid: zoneUid, ...fixOf(told.lastZoneEvent), announced: true });
  const speeding = told.lastSpeeding;
  if (speeding?.type === 'speeding.started') {
    const speed = speeding.fields.speed_kmh as number;
    const start = { ...fixOf(speeding), speed, limit: speeding.fields.limit_kmh as number, zoneUid, max: speed };
    state.above = null;
    state.speeding = { start, below: null };
  } else if (speeding && state.speeding?.start.zoneUid === zoneUid) state.speeding = null;
}

const fixOf = (event: DecidedEvent): Fix => ({ at: event.occurredAt, lat: event.latitude ?? 0, lng: event.longitude ?? 0 });

function stepZones(state: UserZoneState, previous: Fix | null, fix: Fix, zones: ZoneIndex, settings: ZoneSettings): DecidedEvent[] {
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

interface Limit {
  limit: number;
  zoneUid: number | null;
}

/** The lowest speed limit (> 0) of the user's zones the vehicle is in (0: none). */
function zoneLimitAt(state: UserZoneState, zones: ZoneIndex): Limit {
  let best: Limit = { limit: 0, zoneUid: null };
  for (const stay of state.stays) {
    const zone = zones.zone(stay.uid);
    if (zone && zone.speedLimit > 0 && (best.limit === 0 || zone.speedLimit < best.limit)) {
      best = { limit: zone.speedLimit, zoneUid: zone.userLocationUid };
    }
  }
  return best;
}

function stepSpeeding(state: SpeedingState, fix: Fix, speed: number, { limit, zoneUid }: Limit, settings: ZoneSettings): DecidedEvent[] {
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

/**
 * Stored facts told under a zone's earlier definition (or of a zone since deleted) stand: they are never compared,
 * voided or deleted. The others are compared with the walk's by their event ids; a void is about the stored fact,
 * so it goes to the same audience (a fact stored before audiences: its zone's owner).
 */
export function zoneChanges(
  vehicleUid: number,
  stored: readonly ZoneFact[],
  found: readonly ZoneFact[],
  zones: readonly UserZones[],
): ZoneChange {
  const standing = stored.filter((fact) => zoneUidOf(fact.event) === null || !toldBefore(fact, zones));
  const key = (fact: ZoneFact) => `${eventIdOf(vehicleUid, fact.event)}#${fact.decidedAt}`;
  const storedKeys = new Set(standing.map(key));
  const foundKeys = new Set(found.map(key));
  const audiences = new Map(standing.map(({ event }) => [eventIdOf(vehicleUid, event), audienceOf(event, zones)]));
  const events = changedFacts(
    vehicleUid,
    { before: standing.map(({ event }) => event), after: found.map(({ event }) => event) },
    (event) => [event],
  ).map((event) => {
    const audience = event.voids === undefined ? undefined : audiences.get(event.voids);
    return audience === undefined ? event : { ...event, audience };
  });
  return {
    events,
    put: found.filter((fact) => !storedKeys.has(key(fact))),
    remove: standing.filter((fact) => !foundKeys.has(key(fact))),
  };
}

/** A stored fact's audience: its own, or for a zone fact stored before audiences, its zone's owner. */
function audienceOf(event: DecidedEvent, zones: readonly UserZones[]): number | undefined {
  if (event.audience !== undefined) return event.audience;
  const zoneUid = zoneUidOf(event);
  return zoneUid === null ? undefined : ownerOf(zoneUid, zones)?.userUid;
}
