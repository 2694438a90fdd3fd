import { describe, expect, it } from 'vitest';
import { changedFacts, emitAll, noEmission } from '../../../shared/domain/events/detection-events.ts';
import type { DecidedEvent, FleetEvent } from '../../../shared/domain/events/event.ts';
import type { EventType } from '../../../shared/domain/events/event-types.ts';
import { receivesStoredEvent, recipientsOf } from '../../../shared/domain/events/recipients.ts';

const OWNER = 1;
const PARTNER = 2;
const linked = [OWNER, PARTNER];

/** A stored event of a type; `zone` its user_location_uid when it has one. */
function aStoredEvent(type: EventType, data: Record<string, unknown> = {}): FleetEvent {
  return {
    event_id: `evt_${type.replace(/\W/g, '').padEnd(32, '0').slice(0, 32)}`,
    type,
    timestamp: '2026-11-01T06:00:00.000Z',
    data: {
      vehicle_uid: 9,
      imei: '359000000000009',
      vehicle_name: 'T',
      occurred_at: '2026-11-01 06:00:00',
      sequence: 1,
      late: 0,
      latitude: 0,
      longitude: 0,
      ...data,
    },
  };
}

describe('recipientsOf', () => {
  it('gives a vehicle fact (no audience) to every user linked to the vehicle', () => {
    expect(recipientsOf(undefined, linked)).toEqual([OWNER, PARTNER]);
  });

  it('gives a zone fact to its audience alone', () => {
    expect(recipientsOf(PARTNER, linked)).toEqual([PARTNER]);
  });

  it('gives a zone fact whose audience is not linked to the vehicle to nobody', () => {
    expect(recipientsOf(3, linked)).toEqual([]);
  });

  it('gives a vehicle nobody is linked to no recipient', () => {
    expect(recipientsOf(undefined, [])).toEqual([]);
  });
});

describe('receivesStoredEvent, for an event stored before feeds', () => {
  const shared = { voidedEvent: () => undefined, ownsZone: (zone: number) => zone === 41, soleUser: false };

  it.each(['trip.started', 'trip.completed', 'fuel.filled', 'fuel.dropped', 'device.offline', 'device.online'] as const)(
    'gives a %s of a shared vehicle to each of its users',
    (type) => {
      expect(receivesStoredEvent(aStoredEvent(type), shared)).toBe(true);
      expect(receivesStoredEvent(aStoredEvent(type), { ...shared, ownsZone: () => false })).toBe(true);
    },
  );

  it.each(['geofence.entered', 'geofence.exited', 'no_go.entered', 'no_go.exited', 'speeding.started', 'speeding.ended'] as const)(
    "gives a %s of a shared vehicle to its zone's user alone",
    (type) => {
      expect(receivesStoredEvent(aStoredEvent(type, { user_location_uid: 41 }), shared)).toBe(true);
      expect(receivesStoredEvent(aStoredEvent(type, { user_location_uid: 42 }), shared)).toBe(false);
    },
  );

  it("gives speeding over the vehicle's own limit (no zone) to each user", () => {
    expect(receivesStoredEvent(aStoredEvent('speeding.started', { user_location_uid: null }), { ...shared, ownsZone: () => false })).toBe(
      true,
    );
  });

  it('gives a void to whoever its voided event went to, and a void of a zone fact no longer kept to nobody', () => {
    const entered = aStoredEvent('geofence.entered', { user_location_uid: 41 });
    const voided = aStoredEvent('event.voided', { voided_event_id: entered.event_id, voided_type: 'geofence.entered' });
    const found = { ...shared, voidedEvent: (id: string) => (id === entered.event_id ? entered : undefined) };
    expect(receivesStoredEvent(voided, found)).toBe(true);
    expect(receivesStoredEvent(voided, { ...found, ownsZone: () => false })).toBe(false);
    expect(receivesStoredEvent(voided, shared)).toBe(false);
    const tripVoid = aStoredEvent('event.voided', { voided_event_id: 'evt_x', voided_type: 'trip.completed' });
    expect(receivesStoredEvent(tripVoid, shared)).toBe(true);
  });

  it('gives every event of a vehicle with one user to that user: only its zones were walked', () => {
    expect(receivesStoredEvent(aStoredEvent('geofence.entered', { user_location_uid: 42 }), { ...shared, soleUser: true })).toBe(true);
  });
});

describe('emitAll and the audience', () => {
  const vehicle = { vehicleUid: 9, imei: '359000000000009', name: 'T' };
  const entered: DecidedEvent = {
    type: 'geofence.entered',
    occurredAt: '2026-11-01T06:00:00.000Z',
    subject: 'zone:41',
    latitude: 0,
    longitude: 0,
    fields: { user_location_uid: 41 },
    audience: OWNER,
  };

  it("names a zone fact's audience by its event_id, and keeps it off the event object", () => {
    const { events, audiences } = emitAll(vehicle, [entered], noEmission(), new Date('2026-11-01T06:01:00.000Z'));
    expect([...audiences]).toEqual([[events[0]?.event_id, OWNER]]);
    expect(JSON.stringify(events)).not.toContain('audience');
  });

  it("gives the void of a zone fact the fact's audience", () => {
    const [voided] = changedFacts(9, { before: [entered], after: [] }, (event) => [event]);
    expect(voided).toMatchObject({ type: 'event.voided', audience: OWNER });
  });
});
