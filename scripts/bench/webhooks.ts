/**
 * `npm run bench -- webhooks`: delivery through the local stack's own router and sender (the table's stream read
 * in-process, the in-process queue, sendWebhooks' handler), to receivers on 127.0.0.1. Events are written to the table
 * as the pipeline writes them; an event's latency runs from its write to its arrival at the receiver.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { commitEvents } from '../../shared/store/feed.ts';
import { givenUser, givenVehicle, type TestUser } from '../../test/support/builders.ts';
import { givenWebhook } from '../../test/support/webhook-builders.ts';
import { type Answer, answerWith, givenReceiver, type Receiver } from '../../test/support/webhook-receiver.ts';
import { type BenchSize, percentile, type Row, round } from './report.ts';

/** the full figures, and the least that still runs every step (test/project/benches.whole-table.test.ts) */
const countsBySize = {
  full: { burst: 300, paced: 100, writers: 10 },
  smallest: { burst: 2, paced: 1, writers: 2 },
} as const;
const { burst: BURST, paced: PACED, writers: WRITERS } = countsBySize.full;
const PACED_PER_SECOND = 20;

export const webhooksNotes = [
  `burst: ${BURST} events written ${WRITERS} at a time, deliveries/s from the first write to the last arrival; paced: ${PACED} events at ` +
    `${PACED_PER_SECOND}/s, latency from each event's write to its arrival`,
  'beside a failing endpoint: a second endpoint of the same user answers 500 to everything, retried every second ' +
    '(WEBHOOK_RETRY_SCHEDULE_S=1,1,1), so it holds senders and queue space while the healthy one is measured',
  'beside a hanging endpoint: a second endpoint of the same user accepts every connection and never answers, so each ' +
    'of its attempts holds a slot for the whole 10 s deadline (WEBHOOK_TIMEOUT_MS) and its other deliveries go round; ' +
    'every event goes to both, so their messages share batches',
  'one machine: DynamoDB Local, the stream reader, the queue and the sender share its cores with the receivers',
];

let sequence = 0;

/** An event of the vehicle, written as the detection writes it (its own item, which the table's stream carries). */
async function writeEvent(vehicle: Vehicle): Promise<{ event: FleetEvent; writtenAt: number }> {
  const now = new Date();
  const event: FleetEvent = {
    event_id: `evt_${randomBytes(16).toString('hex')}`,
    type: 'trip.started',
    timestamp: now.toISOString(),
    data: {
      vehicle_uid: vehicle.vehicleUid,
      imei: vehicle.imei,
      vehicle_name: vehicle.name,
      occurred_at: now.toISOString().slice(0, 19).replace('T', ' '),
      sequence: ++sequence,
      late: 0,
      latitude: -26.2041,
      longitude: 28.0473,
    },
  };
  // latency counts from the write that took (patiently tries again)
  let writtenAt = Date.now();
  await patiently(() => {
    writtenAt = Date.now();
    return commitEvents(event.data.vehicle_uid, [event]);
  });
  return { event, writtenAt };
}

/** What sits beside the healthy endpoint: nothing, an endpoint answering 500 to everything, or one that never answers. */
type Neighbour = 'none' | 'failing' | 'hanging';

const NEIGHBOURS: Record<Neighbour, { label: string; answer?: Answer }> = {
  none: { label: 'one healthy' },
  failing: { label: 'healthy beside a failing one', answer: answerWith(500) },
  hanging: { label: 'healthy beside a hanging one', answer: () => 'handled' },
};

interface Fleet {
  user: TestUser;
  vehicle: Vehicle;
  healthy: Receiver;
  neighbour: Receiver | undefined;
}

/** A loaded machine's DynamoDB Local may miss the client's timeouts (1.5 s): a setup step is tried again. */
async function patiently<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

async function givenFleet(neighbour: Neighbour): Promise<Fleet> {
  const user = await patiently(() => givenUser());
  const vehicle = await patiently(() => givenVehicle(user));
  const healthy = await givenReceiver();
  await patiently(() => givenWebhook(user, { url: healthy.url }));
  const { answer } = NEIGHBOURS[neighbour];
  const beside = answer ? await givenReceiver(answer) : undefined;
  if (beside) await patiently(() => givenWebhook(user, { url: beside.url }));
  return { user, vehicle, healthy, neighbour: beside };
}

/** Arrival time of each event at the receiver, by event_id (the first arrival: a retry does not count). */
const arrivals = (receiver: Receiver): Map<string, number> => {
  const first = new Map<string, number>();
  for (const delivery of receiver.received) {
    const id = String(delivery.headers['webhook-id']);
    if (!first.has(id)) first.set(id, delivery.receivedAt);
  }
  return first;
};

/** Waits for every event's arrival, at most `timeoutMs`; answers how many arrived. */
async function untilArrived(receiver: Receiver, ids: readonly string[], timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  let arrived = 0;
  while (Date.now() < until) {
    const seen = arrivals(receiver);
    arrived = ids.filter((id) => seen.has(id)).length;
    if (arrived === ids.length) break;
    await sleep(50);
  }
  return arrived;
}

async function measure(neighbour: Neighbour, size: BenchSize): Promise<Row> {
  const { burst: BURST, paced: PACED, writers: WRITERS } = countsBySize[size];
  const burstFleet = await givenFleet(neighbour);
  const started = Date.now();
  const burst: Awaited<ReturnType<typeof writeEvent>>[] = [];
  // ten writes at a time: as fast as DynamoDB Local takes them without refusing connections
  while (burst.length < BURST) burst.push(...(await Promise.all(Array.from({ length: WRITERS }, () => writeEvent(burstFleet.vehicle)))));
  const burstArrived = await untilArrived(
    burstFleet.healthy,
    burst.map(({ event }) => event.event_id),
    180_000,
  );
  const lastArrival = Math.max(...arrivals(burstFleet.healthy).values());
  const perSecond = burstArrived / ((lastArrival - started) / 1000);

  const pacedFleet = await givenFleet(neighbour);
  const paced: Awaited<ReturnType<typeof writeEvent>>[] = [];
  for (let i = 0; i < PACED; i++) {
    paced.push(await writeEvent(pacedFleet.vehicle));
    await sleep(1000 / PACED_PER_SECOND);
  }
  const pacedArrived = await untilArrived(
    pacedFleet.healthy,
    paced.map(({ event }) => event.event_id),
    120_000,
  );
  const arrived = arrivals(pacedFleet.healthy);
  // an event that never arrived counts as the wait: the percentiles never flatter
  const latencies = paced.map(({ event, writtenAt }) => (arrived.get(event.event_id) ?? Date.now()) - writtenAt);
  const neighbourAttempts = (burstFleet.neighbour?.received.length ?? 0) + (pacedFleet.neighbour?.received.length ?? 0);
  for (const receiver of [burstFleet.healthy, burstFleet.neighbour, pacedFleet.healthy, pacedFleet.neighbour]) await receiver?.close();
  return {
    endpoints: NEIGHBOURS[neighbour].label,
    'burst arrived': `${burstArrived}/${BURST}`,
    'burst deliveries/s': round(perSecond, 1),
    'paced arrived': `${pacedArrived}/${PACED}`,
    'paced p50 ms': round(percentile(latencies, 50), 0),
    'paced p99 ms': round(percentile(latencies, 99), 0),
    'attempts at the other one': neighbour === 'none' ? '-' : neighbourAttempts,
  };
}

export async function benchWebhooks(size: BenchSize = 'full'): Promise<Row[]> {
  process.env.WEBHOOK_RETRY_SCHEDULE_S = '1,1,1';
  // the hanging endpoint last: its attempts still under way when its row is measured end with the run
  return [await measure('none', size), await measure('failing', size), await measure('hanging', size)];
}
