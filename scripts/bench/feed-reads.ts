/**
 * What a feed call reads (npm run bench -- events, and alone as npm run bench -- feed): a user with 10, 1,000 and
 * 10,000 linked vehicles whose events are spread over them, and per getEvents and redeliverEvents call the items
 * read and the latency. Items read are the feed read's own count (shared/paging/event-feed.ts, the code both
 * operations run); getEvents' latency is over HTTP through the local stack, redeliverEvents' is its feed read (its
 * queueing is the sender's business). Vehicles and events are seeded through the store's own writes.
 */
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { vehicleDetails } from '../../shared/domain/vehicle.ts';
import { type FeedFilter, readEventFeed } from '../../shared/paging/event-feed.ts';
import { createApiKey } from '../../shared/store/api-keys.ts';
import { commitEvents, type FeedPosition } from '../../shared/store/feed.ts';
import { createUser } from '../../shared/store/users.ts';
import { addVehicle, linkVehicle } from '../../shared/store/vehicles.ts';
import { type BenchSize, percentile, type Row } from './report.ts';

/** the full figures, and the least that still runs every step (test/project/benches.whole-table.test.ts) */
const countsBySize = {
  full: { fleets: [10, 1_000, 10_000], events: 5_000, calls: 20 },
  smallest: { fleets: [10], events: 40, calls: 1 },
} as const;
/** events in each user's feed, spread round-robin over its vehicles */
const { events: EVENTS, calls: CALLS } = countsBySize.full;
/** events a seeding commit holds (with the vehicle's log and the counter, one transaction) */
const COMMIT = 40;
const SEED_CONCURRENCY = 25;
const COMMITS_AT_ONCE = 4;

async function inWaves<T>(count: number, make: (n: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let i = 0; i < count; i += SEED_CONCURRENCY)
    made.push(...(await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, count - i) }, (_, n) => make(i + n)))));
  return made;
}

async function seedFleet(vehicleCount: number, run: number, eventCount: number) {
  const user = await createUser(`Feed bench ${vehicleCount}`, 0);
  const key = await createApiKey(user.userUid);
  const vehicles = await inWaves(vehicleCount, async (n) => {
    const vehicle = await addVehicle(
      vehicleDetails({
        imei: `35${String(run).padStart(3, '0')}${String(n).padStart(10, '0')}`,
        name: `Feed bench ${n}`,
        deviceType: 'FMB920',
      }),
    );
    await linkVehicle(user.userUid, vehicle.vehicleUid);
    return vehicle;
  });
  const since = new Date().toISOString();
  const events: FleetEvent[] = Array.from({ length: eventCount }, (_, n) => {
    const vehicle = vehicles[n % vehicles.length] as (typeof vehicles)[number];
    const at = new Date();
    return {
      event_id: `evt_${String(run).padStart(4, '0')}${String(n).padStart(28, '0')}`,
      type: n % 2 ? 'trip.completed' : 'trip.started',
      timestamp: at.toISOString(),
      data: {
        vehicle_uid: vehicle.vehicleUid,
        imei: vehicle.imei,
        vehicle_name: vehicle.name,
        occurred_at: at.toISOString().slice(0, 19).replace('T', ' '),
        sequence: Math.floor(n / vehicles.length) + 1,
        late: 0,
        latitude: -26.2041,
        longitude: 28.0473,
      },
    };
  });
  // one commit per vehicle, as the pipeline commits, a few at once (they race for the user's feed counter)
  const commits: FleetEvent[][] = [];
  for (let i = 0; i < events.length; i += COMMIT)
    commits.push(...Map.groupBy(events.slice(i, i + COMMIT), (event) => event.data.vehicle_uid).values());
  for (let i = 0; i < commits.length; i += COMMITS_AT_ONCE)
    await Promise.all(commits.slice(i, i + COMMITS_AT_ONCE).map((own) => commitEvents((own[0] as FleetEvent).data.vehicle_uid, own)));
  return { userUid: user.userUid, key, since, vehicleUid: (vehicles[0] as (typeof vehicles)[number]).vehicleUid };
}

/**
 * Reads the feed `calls` times with the filter, each call from a position inside the feed (a poller's first call from
 * `since`, then from the positions a walk reaches, from `since` again at the feed's end), so every call has a full
 * feed ahead of it: items read and events answered per call (max), and ms per call.
 */
async function timedReads(userUid: number, since: string, filter: FeedFilter, limit: number, calls: number) {
  let position: FeedPosition = { since };
  const reads: number[] = [];
  const answered: number[] = [];
  const ms: number[] = [];
  for (let call = 0; call < calls; call++) {
    const started = performance.now();
    const feed = await readEventFeed(userUid, position, filter, limit);
    ms.push(performance.now() - started);
    reads.push(feed.read);
    answered.push(feed.eventTexts.length);
    position = feed.more ? feed.position : { since };
  }
  return { maxRead: Math.max(...reads), maxAnswered: Math.max(...answered), p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/** getEvents over HTTP `calls` times, each from `since` (a full page ahead of every call): ms per call. */
async function timedCalls(apiUrl: string, key: string, params: Record<string, string>, calls: number) {
  const ms: number[] = [];
  for (let call = 0; call < calls; call++) {
    const query = new URLSearchParams({ api_key: key, ...params });
    const started = performance.now();
    const answer = await fetch(`${apiUrl}/api/getEvents?${query}`);
    await answer.arrayBuffer();
    ms.push(performance.now() - started);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/** Fleets seeded in this run: each takes IMEIs of its own, as `events` and `feed` both seed in one stack. */
let fleetsSeeded = 0;

export async function benchFeedReads(apiUrl: string, size: BenchSize = 'full'): Promise<Row[]> {
  const { fleets, events, calls } = countsBySize[size];
  const rows: Row[] = [];
  for (const vehicleCount of fleets) {
    fleetsSeeded += 1;
    const fleet = await seedFleet(vehicleCount, fleetsSeeded, events);
    const sinceParam = fleet.since.slice(0, 19).replace('T', ' ');
    const measures: Array<{ call: string; filter: FeedFilter; limit: number; params: Record<string, string> | undefined }> = [
      { call: 'getEvents limit=100', filter: {}, limit: 100, params: { limit: '100', since: sinceParam } },
      { call: 'getEvents limit=1000', filter: {}, limit: 1000, params: { limit: '1000', since: sinceParam } },
      {
        call: 'getEvents limit=100 vehicle_uid=one',
        filter: { vehicleUids: [fleet.vehicleUid] },
        limit: 100,
        params: { limit: '100', since: sinceParam, vehicle_uid: String(fleet.vehicleUid) },
      },
      { call: 'redeliverEvents since (feed read)', filter: { types: ['trip.completed'] }, limit: 1000, params: undefined },
    ];
    for (const measure of measures) {
      const read = await timedReads(fleet.userUid, fleet.since, measure.filter, measure.limit, calls);
      const http = measure.params ? await timedCalls(apiUrl, fleet.key, measure.params, calls) : undefined;
      rows.push({
        vehicles: vehicleCount,
        call: measure.call,
        'items read per call (max)': read.maxRead,
        'events answered per call (max)': read.maxAnswered,
        'feed read p50 ms': read.p50.toFixed(1),
        'feed read p99 ms': read.p99.toFixed(1),
        'HTTP p50 ms': http ? http.p50.toFixed(1) : '-',
        'HTTP p99 ms': http ? http.p99.toFixed(1) : '-',
      });
    }
  }
  return rows;
}

export const feedReadsNotes = [
  `each user: ${EVENTS.toLocaleString('en')} events spread round-robin over its vehicles, committed through the store ` +
    `(one commit per vehicle, ${COMMIT} events at a time); ${CALLS} calls per measure, each with a full page of the feed ahead`,
  'items read: what the feed read took from DynamoDB (wanted or not); feed read ms: that read alone, in this process; ' +
    'HTTP ms: the whole getEvents call through the local stack (key lookup, link check, read, sealing the cursor)',
  'redeliverEvents: the read its call makes (the webhook takes trip.completed, at most 1,000 queued and read per call)',
];
