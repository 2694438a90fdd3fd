/**
 * Each user's zones, indexed, kept by the processor's container across batches (docs/events.md, "Zones and speeding"): a
 * user with thousands of zones costs one small read per batch, not thousands of items nor a new index. Every change
 * of a user's locations moves the user's locations version in its own transaction (shared/store/user-locations.ts),
 * so a batch reads the version and reads the locations again only when it moved: an edit counts from the next batch
 * on, as before.
 */
import { ZoneIndex } from '../domain/events/zone-index.ts';
import { listUserLocations, readLocationsVersion } from '../store/user-locations.ts';

/** Users kept at most: a processor serves a shard's vehicles, whose users are far fewer. */
const MAX_USERS = 500;

const kept = new Map<number, { version: number; zones: ZoneIndex }>();

/** The user's locations as they stand, indexed by where they lie (`zones` lists them). */
export async function currentUserZones(userUid: number): Promise<ZoneIndex> {
  const version = await readLocationsVersion(userUid);
  const hit = kept.get(userUid);
  if (hit?.version === version) return hit.zones;
  // strongly consistent: the locations are never older than the version read before them
  const zones = new ZoneIndex(await listUserLocations(userUid, { consistent: true }));
  kept.delete(userUid);
  kept.set(userUid, { version, zones });
  const [oldest] = kept.keys();
  if (kept.size > MAX_USERS && oldest !== undefined) kept.delete(oldest);
  return zones;
}
