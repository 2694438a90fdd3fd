import * as v from 'valibot';
import { userDayRange } from '../../shared/domain/time.ts';
import { toTripRecord, TripRecord } from '../../shared/contracts/trips.ts';
import { operation } from '../../shared/operation.ts';
import { dateField, dateRangeEntries, integerField, startNotAfterEnd } from '../../shared/contracts/primitives.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';
import { listTrips } from '../../shared/store/trips.ts';
import { listVehicleLinks } from '../../shared/store/vehicles.ts';

export const GetTripsInput = v.pipe(
  v.object({
    filter: imeiFilter,
    ...dateRangeEntries,
  }),
  startNotAfterEnd(),
);

export const GetTripsOutput = v.object({
  filter: v.string(),
  start_date: dateField,
  end_date: dateField,
  cnt: integerField,
  vehicles: v.array(v.object({ vehicle_uid: v.string(), imei: v.string(), trip_cnt: integerField, trips: v.array(TripRecord) })),
});

export const handler = operation('getTrips', GetTripsInput, async ({ user, input }) => {
  const { from, to } = userDayRange(input.start_date, input.end_date, user.gmtOffsetMinutes);
  const links = await listVehicleLinks(user.userUid, input.filter?.imeis);
  const vehicles = await Promise.all(
    links.map(async ({ vehicleUid, imei }) => {
      const trips = await listTrips(vehicleUid, from, to);
      return {
        vehicle_uid: String(vehicleUid),
        imei,
        trip_cnt: trips.length,
        trips: trips.map((trip) => toTripRecord(trip, user.gmtOffsetMinutes)),
      };
    }),
  );
  return { filter: input.filter?.text ?? '', start_date: input.start_date, end_date: input.end_date, cnt: vehicles.length, vehicles };
}, { output: GetTripsOutput });
