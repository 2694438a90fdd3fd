import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { operation } from '../../shared/operation.ts';
import { openCursor, sealCursor } from '../../shared/paging/cursor.ts';
import { type FeedPosition, readEventFeed } from '../../shared/paging/event-feed.ts';
import { getVehicleForUser, listVehicleLinks } from '../../shared/store/vehicles.ts';
import { contract, DEFAULT_EVENTS } from './contract.ts';

const DAY_MS = 86_400_000;

/**
 * The feed: the vehicles (one Query of the links, or the one vehicle's link check), then one Query per vehicle in
 * parallel: two round trips after the key lookup. The cursor is sealed to the user, vehicle_uid and types.
 */
export const handler = operation(contract, async ({ user, input, answer }) => {
  const scope = { operation: answer.operation, userUid: user.userUid, filters: { vehicle_uid: input.vehicle_uid, types: input.types } };
  const [vehicleUids, opened] = await Promise.all([
    input.vehicle_uid === undefined
      ? listVehicleLinks(user.userUid).then((links) => links.map((link) => link.vehicleUid))
      : getVehicleForUser(user.userUid, input.vehicle_uid).then((vehicle) => [vehicle.vehicleUid]),
    input.cursor === undefined ? undefined : openCursor<FeedPosition>(scope, input.cursor),
  ]);
  const since = input.since === undefined ? new Date(Date.now() - DAY_MS).toISOString() : `${input.since.replace(' ', 'T')}.000Z`;
  const feed = await readEventFeed({
    vehicleUids,
    position: opened?.position ?? { at: since, seen: [] },
    fresh: opened === undefined,
    types: input.types,
    limit: input.limit ?? DEFAULT_EVENTS,
  });
  const events: FleetEvent[] = feed.events;
  return { cnt: events.length, events, next_cursor: await sealCursor(scope, { position: feed.position, taken: 0 }) };
});
