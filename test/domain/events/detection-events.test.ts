/**
 * What a detection emits (shared/domain/events/detection-events.ts): new facts once, voids for facts no longer found,
 * numbered and marked late in emission order, and a fact found again after its void under a new id.
 */
import { describe, expect, it } from 'vitest';
import { changedFacts, type EmissionState, emitAll, noEmission } from '../../../shared/domain/events/detection-events.ts';
import { type DecidedEvent, eventIdOf, type FleetEvent } from '../../../shared/domain/events/event.ts';

const VEHICLE = { vehicleUid: 7, imei: '356307042441013', name: 'Truck 01' };
const EMITTED_AT = new Date('2026-11-06T12:00:00.000Z');

const aDrop = (occurredAt: string, dropQty = 15): DecidedEvent => ({
  type: 'fuel.dropped',
  occurredAt,
  subject: `drop:${occurredAt}`,
  latitude: -26.1,
  longitude: 28.2,
  fields: { drop_qty: dropQty },
});

/** What one detection emits when the stored facts `before` become `after`. */
function detect(before: DecidedEvent[], after: DecidedEvent[], state: EmissionState = noEmission(), emittedAt = EMITTED_AT) {
  return emitAll(
    VEHICLE,
    changedFacts(VEHICLE.vehicleUid, { before, after }, (event) => [event]),
    state,
    emittedAt,
  );
}

const typesAndIds = (events: FleetEvent[]) => events.map((event) => [event.type, event.data.voided_event_id ?? event.event_id]);

describe('changedFacts', () => {
  it('decides nothing when re-detection finds the stored facts again', () => {
    // Prepare
    const facts = [aDrop('2026-11-06T01:00:00.000Z'), aDrop('2026-11-06T03:00:00.000Z')];
    // Act
    const decided = changedFacts(VEHICLE.vehicleUid, { before: facts, after: [...facts] }, (event) => [event]);
    // Assess
    expect(decided).toEqual([]);
  });

  it('voids a fact whose figures changed and decides it anew', () => {
    // Act
    const decided = changedFacts(
      VEHICLE.vehicleUid,
      { before: [aDrop('2026-11-06T01:00:00.000Z', 15)], after: [aDrop('2026-11-06T01:00:00.000Z', 18)] },
      (event) => [event],
    );
    // Assess
    expect(decided.map((event) => event.type)).toEqual(['event.voided', 'fuel.dropped']);
    expect(decided[0]?.voids).toBe(eventIdOf(VEHICLE.vehicleUid, aDrop('2026-11-06T01:00:00.000Z', 15)));
  });
});

describe('emitAll', () => {
  it('numbers events on from the sequence in occurrence order, and marks late one older than an event emitted before', () => {
    // Prepare
    const first = detect([], [aDrop('2026-11-06T05:00:00.000Z')]);
    // Act
    const second = detect([], [aDrop('2026-11-06T06:00:00.000Z'), aDrop('2026-11-06T02:00:00.000Z')], first.state);
    // Assess
    expect(second.events.map((event) => [event.data.occurred_at, event.data.sequence, event.data.late])).toEqual([
      ['2026-11-06 02:00:00', 2, 1],
      ['2026-11-06 06:00:00', 3, 0],
    ]);
    expect(second.state).toMatchObject({ sequence: 3, latestAt: '2026-11-06T06:00:00.000Z' });
  });

  it("emits a fact first under its fact's id, and its void names that id", () => {
    // Prepare
    const drop = aDrop('2026-11-06T01:00:00.000Z');
    const found = detect([], [drop]);
    // Act
    const voided = detect([drop], [], found.state);
    // Assess
    expect(found.events[0]?.event_id).toBe(eventIdOf(VEHICLE.vehicleUid, drop));
    expect(voided.events[0]?.data).toMatchObject({ voided_event_id: found.events[0]?.event_id, voided_type: 'fuel.dropped' });
  });

  it('emits a fact found again after its void under a new id, and voids each emission by its own id', () => {
    // Prepare
    const drop = aDrop('2026-11-06T01:00:00.000Z');
    const found = detect([], [drop]);
    const voided = detect([drop], [], found.state);
    // Act
    const refound = detect([], [drop], voided.state);
    const voidedAgain = detect([drop], [], refound.state);
    const thirdTime = detect([], [drop], voidedAgain.state);
    // Assess
    const ids = [found, voided, refound, voidedAgain, thirdTime].flatMap(({ events }) => events.map((event) => event.event_id));
    expect(new Set(ids).size).toBe(5);
    expect(typesAndIds([...voided.events, ...voidedAgain.events])).toEqual([
      ['event.voided', found.events[0]?.event_id],
      ['event.voided', refound.events[0]?.event_id],
    ]);
  });

  it('gives the same ids to the same detection from the same state, so a retried commit emits the same events', () => {
    // Prepare
    const drop = aDrop('2026-11-06T01:00:00.000Z');
    const voided = detect([drop], [], detect([], [drop]).state);
    // Act
    const tried = detect([], [drop], voided.state);
    const retried = detect([], [drop], voided.state);
    // Assess
    expect(retried.events).toEqual(tried.events);
  });

  it('forgets the voids of facts older than the events are kept', () => {
    // Prepare
    const old = aDrop('2026-10-01T01:00:00.000Z');
    const recent = aDrop('2026-11-05T01:00:00.000Z');
    const found = detect([], [old, recent]);
    // Act
    const voided = detect([old, recent], [], found.state);
    // Assess
    expect(Object.keys(voided.state.reissues)).toEqual([eventIdOf(VEHICLE.vehicleUid, recent)]);
  });
});
