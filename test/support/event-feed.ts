import type { FleetEvent } from '../../shared/domain/events/event.ts';

/**
 * The events that stand, read as an integrator reads the feed: every event but the voids and the events they name.
 * Every emission of a fact has its own id, so a fact voided and found again stands by its later emission.
 */
export function standingEvents(events: readonly FleetEvent[]): FleetEvent[] {
  const voided = new Set(events.filter((event) => event.type === 'event.voided').map((event) => event.data.voided_event_id));
  return events.filter((event) => event.type !== 'event.voided' && !voided.has(event.event_id));
}
