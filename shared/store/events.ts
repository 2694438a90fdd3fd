/**
 * Event items: one per emitted event, written in the detection's own transaction (shared/store/tracks.ts), kept
 * 30 days. The item is the seam with the webhook router, which reads it from the table's stream: `entity: 'event'`,
 * `event` the event object as getEvents answers it (JSON text), `event_id`, `vehicle_uid` and `type`.
 */
import { EVENT_RETENTION_S, type FleetEvent } from '../domain/events/event.ts';
import { keys } from './keys.ts';
import { type Item, queryRange } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

export function eventItem(event: FleetEvent): Item {
  return {
    ...keys.event(event.data.vehicle_uid, event.timestamp, event.data.sequence),
    ...keys.eventById(event.event_id),
    entity: 'event',
    event: JSON.stringify(event),
    event_id: event.event_id,
    vehicle_uid: event.data.vehicle_uid,
    type: event.type,
    [tableDefinition.ttlAttribute]: Math.floor(Date.parse(event.timestamp) / 1000) + EVENT_RETENTION_S,
  };
}

export const eventOfItem = (item: Item): FleetEvent => JSON.parse(String(item.event)) as FleetEvent;

/**
 * A vehicle's events from a sort key on (inclusive), in emission order, at most `limit`; strongly consistent so a
 * poll never misses a commit it follows.
 */
export async function listVehicleEvents(vehicleUid: number, from: string, limit: number): Promise<Item[]> {
  return queryRange(keys.eventRange(vehicleUid, from), { Limit: limit, ConsistentRead: true });
}

/** The events stored under this event_id, newest last: one, as a fact found again after its void gets a new id. */
export async function findEventsById(eventId: string): Promise<FleetEvent[]> {
  return (await queryRange(keys.eventByIdRange(eventId))).map(eventOfItem);
}
