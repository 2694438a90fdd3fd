/**
 * The vehicle's log (docs/events.md, "Storage"): one item per vehicle fact in the vehicle's partition, written in the
 * commit that appends it to the feeds (shared/store/feed.ts), kept 30 days. It is what `vehicle link` copies into a
 * newly linked user's feed. Zone facts are one user's, so their feed item is their only copy. Items stored before the
 * feeds existed (`entity: 'event'`, every type) are what the feed migration copies (shared/feed-copy.ts).
 */
import { EVENT_RETENTION_S, type FleetEvent } from '../domain/events/event.ts';
import { tableName } from './client.ts';
import { keys } from './keys.ts';
import { type Item, queryWhile, type TransactItems } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

/** The log's items since feeds exist; `entity: 'event'` marks those stored before. */
export const VEHICLE_LOG_ENTITY = 'vehicle-event';
export const STORED_BEFORE_FEEDS_ENTITY = 'event';

function vehicleLogItem(event: FleetEvent): Item {
  return {
    ...keys.event(event.data.vehicle_uid, event.timestamp, event.data.sequence),
    entity: VEHICLE_LOG_ENTITY,
    event: JSON.stringify(event),
    event_id: event.event_id,
    vehicle_uid: event.data.vehicle_uid,
    type: event.type,
    [tableDefinition.ttlAttribute]: Math.floor(Date.parse(event.timestamp) / 1000) + EVENT_RETENTION_S,
  };
}

export const eventOfItem = (item: Item): FleetEvent => JSON.parse(String(item.event)) as FleetEvent;

/** Up to `limit` items of the vehicle's log after a sort key (from its start when undefined: every sort key is a time), in log order. */
export async function listVehicleLog(vehicleUid: number, after: string | undefined, limit: number): Promise<Item[]> {
  const range = keys.eventRange(vehicleUid, after === undefined ? '0' : `${after}~`);
  const { items } = await queryWhile(range, (read) => read.length < limit, { Limit: limit, ConsistentRead: true });
  return items.slice(0, limit);
}

/** The vehicle's log takes its vehicle facts: a zone fact (one with an audience) is one user's, kept in that feed alone. */
export function vehicleLogPuts(events: readonly FleetEvent[], audiences: ReadonlyMap<string, number> | undefined): TransactItems {
  return events
    .filter((event) => !audiences?.has(event.event_id))
    .map((event) => ({ Put: { TableName: tableName(), Item: vehicleLogItem(event), ConditionExpression: 'attribute_not_exists(pk)' } }));
}
