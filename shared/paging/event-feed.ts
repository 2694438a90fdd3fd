/**
 * The events feed's walk (docs/events.md, "The feed"): the events of a set of vehicles merged in emission order from
 * where the previous answer ended. A commit lands a little after its events' timestamp, so each call re-reads the last
 * SETTLE_MS before its boundary and skips the events the cursor says were answered: a late-landing commit is answered
 * once, never missed, never repeated.
 */
import type { FleetEvent } from '../domain/events/event.ts';
import { eventOfItem, listVehicleEvents } from '../store/events.ts';

/** How long after its events' timestamp a commit may land and still reach a poller that passed it. */
export const SETTLE_MS = 10_000;

/** Where the feed stands: the last answered timestamp, and the events answered within SETTLE_MS of it (vehicle, sequence, ms). */
export interface FeedPosition {
  at: string;
  seen: Array<[number, number, number]>;
}

interface FeedRead {
  vehicleUids: readonly number[];
  position: FeedPosition;
  /** true on the first call (the boundary is `since`): nothing before it is read */
  fresh: boolean;
  types: readonly string[] | undefined;
  limit: number;
}

const order = (a: FleetEvent, b: FleetEvent) =>
  a.timestamp.localeCompare(b.timestamp) || a.data.vehicle_uid - b.data.vehicle_uid || a.data.sequence - b.data.sequence;

/** One Query per vehicle in parallel (one round trip), merged; answers the events taken and the position after them. */
export async function readEventFeed({ vehicleUids, position, fresh, types, limit }: FeedRead) {
  const from = fresh ? position.at : new Date(Date.parse(position.at) - SETTLE_MS).toISOString();
  const seen = new Set(position.seen.map(([vehicle, sequence]) => `${vehicle}:${sequence}`));
  const wanted = limit + position.seen.length + 1;
  const perVehicle = await Promise.all(
    vehicleUids.map(async (uid) => {
      const items = await listVehicleEvents(uid, from, wanted);
      return { events: items.map(eventOfItem), cut: items.length === wanted };
    }),
  );
  // a vehicle read only in part bounds the walk: past its last read event it may have more
  const cutoff = perVehicle
    .filter(({ cut }) => cut)
    .map(({ events }) => events.at(-1) as FleetEvent)
    .sort(order)[0];
  const events = perVehicle
    .flatMap(({ events }) => events)
    .filter((event) => !seen.has(`${event.data.vehicle_uid}:${event.data.sequence}`))
    .filter((event) => cutoff === undefined || order(event, cutoff) <= 0)
    .sort(order);
  const answered: FleetEvent[] = [];
  const walked: FleetEvent[] = [];
  for (const event of events) {
    if (answered.length === limit) break;
    walked.push(event);
    if (types === undefined || types.includes(event.type)) answered.push(event);
  }
  return { events: answered, position: nextPosition(position, walked) };
}

function nextPosition(position: FeedPosition, walked: readonly FleetEvent[]): FeedPosition {
  const last = walked.at(-1);
  const at = last && last.timestamp > position.at ? last.timestamp : position.at;
  const floor = Date.parse(at) - SETTLE_MS;
  const seen = [
    ...position.seen,
    ...walked.map((event): [number, number, number] => [event.data.vehicle_uid, event.data.sequence, Date.parse(event.timestamp)]),
  ].filter(([, , ms]) => ms >= floor);
  return { at, seen };
}
