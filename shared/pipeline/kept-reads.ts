/**
 * What a vehicle's batch read of its history, and what it wrote there, kept by the processor's container for the
 * vehicle's next batch (docs/positions-pipeline.md, "Reads kept between batches"). One shard's records go to one
 * batcher, so the container that processed a vehicle's batch almost always processes its next one: it then knows
 * the checkpoint, the chunks, the trips, drops and zone facts it would read, without reading them.
 *
 * Whether they are still so is the track item's `revision`, read with the vehicle anyway: every pipeline write of
 * the track item is conditioned on the revision it read and moves it on, and every detection that writes history,
 * trips, drops or zone facts writes the track item after them. A container keeps what it knows at the revision its
 * own write set, so another writer (a batch in another container, the quiet-vehicles check, admin reprocess) moves
 * the revision and the next batch reads the table as before. Only a batch in order is kept (its points are not
 * before the newest one already stored): the next in-order batch then reads exactly this, where a late point's
 * re-detection needs an earlier checkpoint and the history since, which are read. Fills are always read: a slip is
 * linked to a fill by the API, without the track item.
 */

import type { Trip } from '../domain/trip.ts';
import type { StoredDrop } from '../store/fuel-drops.ts';
import { fuelDropEntity } from '../store/fuel-drops.ts';
import { keys } from '../store/keys.ts';
import type { Checkpoint, StoredChunk } from '../store/positions.ts';
import type { DetectionCommit, TrackedVehicle } from '../store/tracks.ts';
import { tripEntity } from '../store/trips.ts';
import type { StoredZoneFact } from '../store/zone-facts.ts';

/** What a batch reads of a vehicle's history (fills aside), each list from its lower bound on, in key order. */
export interface HistoryReads {
  checkpoint: Checkpoint | undefined;
  /** chunks from the checkpoint's hour on */
  chunks: StoredChunk[];
  trips: Trip[];
  drops: StoredDrop[];
  zoneFacts: StoredZoneFact[];
  /** the lower bounds the lists were read from: trips' starts, drops' times, chunks' and zone facts' times */
  bounds: HistoryBounds;
}

export interface HistoryBounds {
  trips: string;
  drops: string;
  history: string;
}

interface Kept {
  revision: number;
  imei: string;
  /** the newest point of the history: a batch from it on is in order */
  newest: string;
  reads: HistoryReads;
  chars: number;
}

/**
 * Characters kept at most (chunks' encodings and the rest as JSON): about 10 KB a vehicle at 30 s reporting, so one
 * shard's vehicles at 30 s (24,000 at most) stay well within a 1,024 MB function. Past it, entries are dropped at random,
 * so a larger working set still finds most of its vehicles (the oldest first would find none when they come round in turn).
 */
const MAX_KEPT_CHARS = 256_000_000;

const kept = new Map<number, Kept>();
let keptChars = 0;

/** The checkpoint and lists kept for the vehicle, when they are still the table's and the batch starts no earlier than its history ends. */
export function keptReads(tracked: TrackedVehicle, earliest: string): HistoryReads | undefined {
  const entry = kept.get(tracked.vehicle.vehicleUid);
  if (!entry || entry.revision !== tracked.revision || entry.imei !== tracked.vehicle.imei || earliest < entry.newest) return undefined;
  // a copy: detection may not change what the next batch starts from
  return structuredClone(entry.reads);
}

/**
 * The kept lists from narrower bounds on (a later checkpoint's), or undefined when a bound is earlier than the one
 * they were read from (the table is then read).
 */
export function narrowed(reads: HistoryReads, bounds: HistoryBounds): HistoryReads | undefined {
  if (bounds.trips < reads.bounds.trips || bounds.drops < reads.bounds.drops || bounds.history < reads.bounds.history) return undefined;
  const lowestChunk = keys.positionChunkLowest(bounds.history);
  return {
    checkpoint: reads.checkpoint,
    chunks: reads.chunks.filter((chunk) => chunk.sk >= lowestChunk),
    trips: reads.trips.filter((trip) => trip.startTime >= bounds.trips),
    drops: reads.drops.filter((drop) => drop.at >= bounds.drops),
    zoneFacts: reads.zoneFacts.filter((fact) => fact.sk >= bounds.history),
    bounds,
  };
}

/** What the batch wrote besides the track item: the checkpoints and chunks it put, and its commit's trips, drops and zone facts. */
export interface HistoryWrites {
  checkpoints: readonly Checkpoint[];
  chunks: readonly StoredChunk[];
  commit: Pick<DetectionCommit, 'newTrips' | 'changedTrips' | 'removedTrips' | 'savedDrops' | 'removedDrops' | 'zoneFacts'>;
}

/**
 * After an in-order batch's track write set `revision`: what its reads and writes leave in the table, kept for the
 * vehicle's next batch. Written items are kept as the table gives them back (through their entities).
 */
export function keepReads(tracked: TrackedVehicle, revision: number, newest: string, reads: HistoryReads, writes: HistoryWrites): void {
  forgetReads(tracked.vehicle.vehicleUid);
  const { commit } = writes;
  const checkpoint = [reads.checkpoint, ...writes.checkpoints]
    .filter((entry): entry is Checkpoint => entry !== undefined)
    .reduce<Checkpoint | undefined>((latest, entry) => (latest === undefined || entry.hour >= latest.hour ? entry : latest), undefined);
  const trips = new Map(reads.trips.map((trip) => [trip.startTime, trip]));
  for (const { startTime } of commit.removedTrips) trips.delete(startTime);
  for (const { previousStart } of commit.changedTrips) trips.delete(previousStart);
  for (const trip of [...commit.changedTrips.map(({ trip }) => trip), ...commit.newTrips])
    trips.set(trip.startTime, tripEntity.fromItem(tripEntity.toItem(trip)));
  const drops = new Map(reads.drops.map((drop) => [drop.at, drop]));
  for (const at of commit.removedDrops) drops.delete(at);
  for (const drop of commit.savedDrops) drops.set(drop.at, fuelDropEntity.fromItem(fuelDropEntity.toItem(drop)));
  const zoneFacts = new Map(reads.zoneFacts.map((fact) => [fact.sk, fact]));
  for (const key of commit.zoneFacts?.remove ?? []) zoneFacts.delete(String(key.sk));
  for (const item of commit.zoneFacts?.put ?? [])
    zoneFacts.set(String(item.sk), { sk: String(item.sk), fact: JSON.parse(String(item.fact)) });
  const chunks = new Map(reads.chunks.map((chunk) => [chunk.sk, chunk]));
  for (const chunk of writes.chunks) chunks.set(chunk.sk, chunk);

  const byKey = <T>(entries: Map<string, T>): T[] =>
    [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
  const kept_: HistoryReads = {
    // as the table gives it back: JSON's round trip is DynamoDB's for plain data
    checkpoint: checkpoint && (JSON.parse(JSON.stringify(checkpoint)) as Checkpoint),
    chunks: byKey(chunks),
    trips: byKey(trips),
    drops: byKey(drops),
    zoneFacts: byKey(zoneFacts),
    bounds: reads.bounds,
  };
  const { chunks: keptChunks, ...rest } = kept_;
  const chars = keptChunks.reduce((sum, chunk) => sum + chunk.points.length, 0) + JSON.stringify(rest).length;
  kept.set(tracked.vehicle.vehicleUid, { revision, imei: tracked.vehicle.imei, newest, reads: kept_, chars });
  keptChars += chars;
  while (keptChars > MAX_KEPT_CHARS && kept.size > 1) forgetReads([...kept.keys()][Math.floor(Math.random() * kept.size)] as number);
}

/** Nothing kept for the vehicle: its batch failed, or wrote what the next one must read. */
export function forgetReads(vehicleUid: number): void {
  keptChars -= kept.get(vehicleUid)?.chars ?? 0;
  kept.delete(vehicleUid);
}
