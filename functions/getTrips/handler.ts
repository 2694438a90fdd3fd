import { userDayRange } from '../../shared/domain/time.ts';
import { type Trip, tripReport } from '../../shared/domain/trip.ts';
import { operation } from '../../shared/operation.ts';
import { AnswerPage, recordCost } from '../../shared/paging/answer-page.ts';
import type { ItemPosition } from '../../shared/store/requests.ts';
import { readTrips } from '../../shared/store/trips.ts';
import { listVehicleLinks } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

/** Where a page of trips ends: in a vehicle after a trip, or past the whole vehicle (`done`). Vehicles go in vehicle_uid order. */
interface TripsPosition {
  vehicle: number;
  after?: ItemPosition;
  done?: true;
}

interface VehicleRead {
  trips: Array<{ trip: Trip; position: ItemPosition }>;
  /** the reader stopped before the vehicle's trips ran out */
  cut: boolean;
}

/**
 * The links, then one Query per vehicle, all in parallel. The readers share one tally of what they read, so together
 * they stop near the answer's capacity; the first vehicle keeps a tally of its own, so a page always moves on. The
 * answer then takes the vehicles in order until it is full (a vehicle may continue on the next page).
 */
export const handler = operation(contract, async (context) => {
  const { user, input } = context;
  const toRecord = (trip: Trip) => tripReport(trip, user.gmtOffsetMinutes);
  const { from, to } = userDayRange(input.start_date, input.end_date, user.gmtOffsetMinutes);
  const page = await AnswerPage.open<TripsPosition>(context);
  const start = page.after;
  const links = (await listVehicleLinks(user.userUid, input.filter?.imeis)).filter(
    ({ vehicleUid }) => !start || vehicleUid > start.vehicle || (vehicleUid === start.vehicle && !start.done),
  );
  const { records, bytes } = page.capacity;
  const shared = { records: 0, bytes: 0 };
  const reads = await Promise.all(
    links.map(async ({ vehicleUid }, index): Promise<VehicleRead> => {
      const own = { records: 0, bytes: 0 };
      const tally = index === 0 ? own : shared;
      const read: VehicleRead = { trips: [], cut: false };
      await readTrips(vehicleUid, from, to, {
        after: start?.vehicle === vehicleUid ? start.after : undefined,
        most: records,
        take: (trip, position) => {
          const cost = recordCost(toRecord(trip));
          if (tally.records + 1 > records || tally.bytes + cost > bytes) {
            read.cut = true;
            return false;
          }
          for (const counted of new Set([own, shared])) {
            counted.records++;
            counted.bytes += cost;
          }
          read.trips.push({ trip, position });
          return true;
        },
      });
      return read;
    }),
  );
  const vehicles = [];
  for (const [index, { vehicleUid, imei }] of links.entries()) {
    const { trips, cut } = reads[index] as VehicleRead;
    // Other vehicles took the shared tally before this one read anything: it starts the next page.
    if (cut && trips.length === 0) {
      page.endEarly();
      break;
    }
    const entry = { vehicle_uid: String(vehicleUid), imei, trip_cnt: 0, trips: [] as ReturnType<typeof toRecord>[] };
    if (
      !page.addFrame(
        { ...entry, trips: undefined },
        { vehicle: vehicleUid, ...(start?.vehicle === vehicleUid ? { after: start.after } : {}) },
      )
    )
      break;
    vehicles.push(entry);
    const taken = trips.findIndex(({ trip, position }) => {
      const record = toRecord(trip);
      if (!page.add(record, { vehicle: vehicleUid, after: position })) return true;
      entry.trips.push(record);
      return false;
    });
    entry.trip_cnt = entry.trips.length;
    if (taken >= 0) break;
    if (cut) {
      page.endEarly();
      break;
    }
    page.addFrame({}, { vehicle: vehicleUid, done: true });
  }
  return {
    filter: input.filter?.text ?? '',
    start_date: input.start_date,
    end_date: input.end_date,
    cnt: vehicles.length,
    vehicles,
    ...(await page.nextCursor()),
  };
});
