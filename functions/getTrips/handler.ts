import { toTripRecord } from '../../shared/contracts/trips.ts';
import { userDayRange } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { listTrips } from '../../shared/store/trips.ts';
import { listVehicleLinks } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
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
});
