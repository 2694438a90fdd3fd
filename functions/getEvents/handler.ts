import { writtenRecords } from '../../shared/contracts/verbatim-json.ts';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { operation } from '../../shared/operation.ts';
import { openCursor, sealCursor } from '../../shared/paging/cursor.ts';
import { feedPositionOf, readEventFeed } from '../../shared/paging/event-feed.ts';
import { getVehicleForUser } from '../../shared/store/vehicles.ts';
import { contract, DEFAULT_EVENTS } from './contract.ts';

const DAY_MS = 86_400_000;

/**
 * The feed: one strongly consistent Query of the user's own feed from the cursor's position (or `since`), with the
 * vehicle's link check beside it when vehicle_uid is given: one round trip after the key lookup (two when a page of
 * large events passes DynamoDB's 1 MB). The cursor is the feed position, sealed to the user, vehicle_uid and types.
 */
export const handler = operation(contract, async ({ user, input, answer }) => {
  const scope = { operation: answer.operation, userUid: user.userUid, filters: { vehicle_uid: input.vehicle_uid, types: input.types } };
  const opened = input.cursor === undefined ? undefined : feedPositionOf((await openCursor<unknown>(scope, input.cursor)).position);
  const since = input.since === undefined ? new Date(Date.now() - DAY_MS).toISOString() : `${input.since.replace(' ', 'T')}.000Z`;
  const [feed] = await Promise.all([
    readEventFeed(
      user.userUid,
      opened ?? { since },
      { vehicleUids: input.vehicle_uid === undefined ? undefined : [input.vehicle_uid], types: input.types },
      input.limit ?? DEFAULT_EVENTS,
    ),
    input.vehicle_uid === undefined ? undefined : getVehicleForUser(user.userUid, input.vehicle_uid),
  ]);
  // the events as the feed stored them (JSON.stringify's text), spliced in as one array: not parsed to be written again
  const events = writtenRecords<FleetEvent>(feed.eventTexts);
  return { cnt: feed.eventTexts.length, events, next_cursor: await sealCursor(scope, { position: feed.position, taken: 0 }) };
});
