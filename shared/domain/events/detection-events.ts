/**
 * The events a detection decides from its outputs: what re-detection found compared with what was stored. A trip
 * or fill new to the store emits its events; one that changed voids the events of its old figures and emits anew;
 * one re-detection no longer finds voids its events. A replayed batch finds nothing new, so it emits nothing.
 * Old events are named by recomputing their facts' ids from the stored records and the vehicle's emission state, so
 * nothing but the records and the track item is read.
 */
import type { FuelFill } from '../fuel-fill.ts';
import { roundTo } from '../geo.ts';
import { type Trip, tripReport } from '../trip.ts';
import { type DecidedEvent, EVENT_RETENTION_S, emitEvent, emittedIdOf, eventIdOf, type FleetEvent, type VehicleOfEvent } from './event.ts';

/** trip.started and trip.completed of a closed trip, times GMT+0 as every event time. */
export function tripEvents(trip: Trip): DecidedEvent[] {
  const record = tripReport(trip, 0);
  const subject = `trip:${trip.tripUid}`;
  return [
    {
      type: 'trip.started',
      occurredAt: trip.startTime,
      subject,
      latitude: trip.startLat,
      longitude: trip.startLng,
      fields: { trip_uid: record.trip_uid, start_location: record.start_location, driver_tag_id: record.driver_tag_id },
    },
    {
      type: 'trip.completed',
      occurredAt: trip.stopTime,
      subject,
      latitude: trip.stopLat,
      longitude: trip.stopLng,
      fields: { trip: record },
    },
  ];
}

/** fuel.filled at the start of the level's rise, with the fill report's figures. */
export function fillEvents(fill: FuelFill): DecidedEvent[] {
  return [
    {
      type: 'fuel.filled',
      occurredAt: fill.at,
      subject: `fill:${fill.eventUid}`,
      latitude: fill.latitude,
      longitude: fill.longitude,
      fields: {
        event_uid: fill.eventUid,
        fill_qty: roundTo(fill.fillQty, 1),
        fuel_level_before: fill.levelBefore === null ? null : roundTo(fill.levelBefore, 1),
        fuel_level_after: roundTo(fill.levelAfter, 1),
        location: fill.location,
      },
    },
  ];
}

/** What a detection replaced: the stored records before, the records after. */
export interface DetectionChange<Record> {
  before: readonly Record[];
  after: readonly Record[];
}

/**
 * The events the change decides: the facts of `after` that `before` did not have, and an event.voided for each
 * fact of `before` that `after` no longer has (matched by the fact's id, so an unchanged fact emits nothing).
 */
export function changedFacts<Record>(
  vehicleUid: number,
  change: DetectionChange<Record>,
  eventsOf: (record: Record) => DecidedEvent[],
): DecidedEvent[] {
  const idsOf = (events: DecidedEvent[]) => new Map(events.map((event) => [eventIdOf(vehicleUid, event), event]));
  const before = idsOf(change.before.flatMap(eventsOf));
  const after = idsOf(change.after.flatMap(eventsOf));
  const voided = [...before].filter(([id]) => !after.has(id)).map(([id, event]) => voidedEvent(id, event));
  const emitted = [...after].filter(([id]) => !before.has(id)).map(([, event]) => event);
  return [...voided, ...emitted];
}

/** An event.voided as decided: `voids` names the fact; the emission names the id that fact was emitted under. */
function voidedEvent(factId: string, voided: DecidedEvent): DecidedEvent {
  return {
    type: 'event.voided',
    occurredAt: voided.occurredAt,
    subject: factId,
    voids: factId,
    latitude: voided.latitude,
    longitude: voided.longitude,
    fields: { voided_type: voided.type, reason: 're-detection no longer finds this fact' },
    // a zone fact's void is as private as the fact
    ...(voided.audience === undefined ? {} : { audience: voided.audience }),
  };
}

/** How often a voided fact has been voided, and when it occurred (UTC ISO), so the note can go with its events. */
export interface Reissue {
  voids: number;
  occurredAt: string;
}

/**
 * Where a vehicle's emission stands: its last sequence, the latest occurred_at emitted (UTC ISO), and the facts
 * voided so far by their ids: a fact found again after its void is emitted under a new id (`emittedIdOf`).
 */
export interface EmissionState {
  sequence: number;
  latestAt: string | null;
  reissues: Record<string, Reissue>;
}

export const noEmission = (): EmissionState => ({ sequence: 0, latestAt: null, reissues: {} });

/**
 * Emits decided events in the order they occurred, numbering them on from the vehicle's sequence; an event is late
 * when an event that occurred after it was emitted before it. A void names the id its fact was last emitted under
 * and counts the void, so the fact's next emission gets a new id; a receiver that drops ids it has seen takes it.
 * `audiences` names, by event_id, the user each zone fact's event is for (recipients.ts).
 */
export function emitAll(
  vehicle: VehicleOfEvent,
  decided: readonly DecidedEvent[],
  state: EmissionState,
  emittedAt: Date,
): { events: FleetEvent[]; state: EmissionState; audiences: Map<string, number> } {
  let { sequence, latestAt } = state;
  const reissues = { ...state.reissues };
  const audiences = new Map<string, number>();
  const emittedIdOfFact = (factId: string) => emittedIdOf(factId, reissues[factId]?.voids ?? 0);
  const events = [...decided]
    .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt))
    .map(({ voids, ...decidedEvent }) => {
      const event = voids === undefined ? decidedEvent : namingVoided(decidedEvent, emittedIdOfFact(voids));
      const eventId = voids === undefined ? emittedIdOfFact(eventIdOf(vehicle.vehicleUid, event)) : eventIdOf(vehicle.vehicleUid, event);
      if (voids !== undefined) reissues[voids] = { voids: (reissues[voids]?.voids ?? 0) + 1, occurredAt: event.occurredAt };
      const late = latestAt !== null && event.occurredAt < latestAt;
      if (!late) latestAt = event.occurredAt;
      sequence += 1;
      if (event.audience !== undefined) audiences.set(eventId, event.audience);
      return emitEvent(vehicle, event, { eventId, emittedAt, sequence, late });
    });
  return { events, state: { sequence, latestAt, reissues: withinRetention(reissues, emittedAt) }, audiences };
}

/** The void as emitted: about the id its fact was emitted under, so voiding the same fact again is another event. */
const namingVoided = (event: DecidedEvent, voidedId: string): DecidedEvent => ({
  ...event,
  subject: voidedId,
  fields: { voided_event_id: voidedId, ...event.fields },
});

/** A fact whose events are past retention is not found again by any late point the feed could still show. */
function withinRetention(reissues: Record<string, Reissue>, emittedAt: Date): Record<string, Reissue> {
  const oldest = new Date(emittedAt.getTime() - EVENT_RETENTION_S * 1000).toISOString();
  return Object.fromEntries(Object.entries(reissues).filter(([, reissue]) => reissue.occurredAt >= oldest));
}
