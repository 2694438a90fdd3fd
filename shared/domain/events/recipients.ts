/**
 * Who sees an event (docs/events.md, "Who sees an event"): the tenant rule, in the feed and in deliveries alike. A
 * vehicle fact (trips, fills, drops, device online/offline, speeding over the vehicle's own limit) goes to every user
 * linked to the vehicle when it is committed; a fact decided from one user's zones goes to that user alone.
 */
import type { FleetEvent } from './event.ts';

/** The users an event is appended for: its audience when that user is linked (else nobody), every linked user without one. */
export function recipientsOf(audience: number | undefined, linkedUsers: readonly number[]): number[] {
  if (audience === undefined) return [...linkedUsers];
  return linkedUsers.includes(audience) ? [audience] : [];
}

const ZONE_TYPES: readonly string[] = ['geofence.entered', 'geofence.exited', 'no_go.entered', 'no_go.exited'];
const SPEEDING_TYPES: readonly string[] = ['speeding.started', 'speeding.ended'];

/**
 * The zone an event stored before feeds existed was decided from (its user_location_uid), or null for a vehicle fact:
 * zone events always name one, speeding names one when a zone's limit applied. A void is about the fact it voids,
 * found by `voidedEvent` (undefined when that event is no longer kept: then its zone is unknown).
 */
export function zoneOfStoredEvent(
  event: FleetEvent,
  voidedEvent: (eventId: string) => FleetEvent | undefined,
): { zone: number | null } | undefined {
  if (event.type === 'event.voided') {
    const voidedType = String(event.data.voided_type);
    if (!ZONE_TYPES.includes(voidedType) && !SPEEDING_TYPES.includes(voidedType)) return { zone: null };
    const voided = voidedEvent(String(event.data.voided_event_id));
    return voided === undefined ? undefined : zoneOfStoredEvent(voided, voidedEvent);
  }
  if (!ZONE_TYPES.includes(event.type) && !SPEEDING_TYPES.includes(event.type)) return { zone: null };
  const zone = event.data.user_location_uid;
  return { zone: typeof zone === 'number' ? zone : null };
}

/** What deciding a stored event's recipients may look up: the event a void names, the user's zones, the vehicle's users. */
export interface StoredEventContext {
  voidedEvent: (eventId: string) => FleetEvent | undefined;
  ownsZone: (userLocationUid: number) => boolean;
  /** the vehicle has this one user: only its zones were ever walked for the vehicle */
  soleUser: boolean;
}

/**
 * Whether a user gets an event stored before feeds existed (npm run admin -- events migrate-feeds): a vehicle fact, or
 * a fact of one of the user's own zones. The only user of a vehicle gets every event; for a shared vehicle, a void
 * whose voided event is no longer kept cannot be placed, and goes to nobody.
 */
export function receivesStoredEvent(event: FleetEvent, context: StoredEventContext): boolean {
  if (context.soleUser) return true;
  const origin = zoneOfStoredEvent(event, context.voidedEvent);
  return origin !== undefined && (origin.zone === null || context.ownsZone(origin.zone));
}
