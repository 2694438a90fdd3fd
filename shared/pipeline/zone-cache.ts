/**
 * Each user's locations, kept by the processor's container across batches (docs/events.md, "Zones at scale"): a user
 * with thousands of zones costs one small read per batch, not thousands of items. Every change of a user's locations
 * moves the user's locations version in its own transaction (shared/store/user-locations.ts), so a batch reads the
 * version and reads the locations again only when it moved: an edit counts from the next batch on, as before.
 */
import type { UserLocation } from '../domain/user-location.ts';
import { listUserLocations, readLocationsVersion } from '../store/user-locations.ts';

/** Users kept at most: a processor serves a shard's vehicles, whose users are far fewer. */
const MAX_USERS = 500;

const kept = new Map<number, { version: number; locations: UserLocation[] }>();

export async function currentUserLocations(userUid: number): Promise<UserLocation[]> {
  const version = await readLocationsVersion(userUid);
  const hit = kept.get(userUid);
  if (hit?.version === version) return hit.locations;
  // strongly consistent: the locations are never older than the version read before them
  const locations = await listUserLocations(userUid, { consistent: true });
  kept.delete(userUid);
  kept.set(userUid, { version, locations });
  const [oldest] = kept.keys();
  if (kept.size > MAX_USERS && oldest !== undefined) kept.delete(oldest);
  return locations;
}
