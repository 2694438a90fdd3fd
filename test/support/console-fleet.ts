/**
 * A small fleet for the console's browser tests, made the way the service makes it: a user, three vehicles, and their
 * positions run through the real pipeline (so trips, live data and events are what detection found). Truck 01 drove
 * depot → client and is parked there (stopped), Truck 02 is on the road now (moving), Truck 03 last reported hours ago
 * (offline).
 */
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { givenUser, givenVehicle, type TestUser } from './builders.ts';
import { CLIENT, DEPOT, drive, ingest, type PositionRecordInput, parked } from './position-builders.ts';

export interface ConsoleFleet {
  user: TestUser;
  parkedTruck: Vehicle;
  movingTruck: Vehicle;
  offlineTruck: Vehicle;
}

const minutesAgo = (now: number, minutes: number): string => new Date(now - minutes * 60_000).toISOString();

export async function givenConsoleFleet(now = Date.now()): Promise<ConsoleFleet> {
  const user = await givenUser();
  const parkedTruck = await givenVehicle(user, { name: 'Truck 01', regNum: 'CA 123-456' });
  const movingTruck = await givenVehicle(user, { name: 'Truck 02', regNum: 'GP 22-22' });
  const offlineTruck = await givenVehicle(user, { name: 'Truck 03', regNum: 'ND 33-33' });
  const trip = drive(parkedTruck.imei, minutesAgo(now, 90), 20, DEPOT, CLIENT);
  const onTheRoad = drive(movingTruck.imei, minutesAgo(now, 12), 30, CLIENT, DEPOT).records.filter(
    (record) => Date.parse(record.gps_datetime) <= now - 60_000,
  );
  const records: PositionRecordInput[] = [
    ...parked(parkedTruck.imei, minutesAgo(now, 100), 10, DEPOT),
    ...trip.records,
    ...parked(parkedTruck.imei, new Date(Date.parse(trip.stopTime) + 60_000).toISOString(), 65, CLIENT),
    ...parked(movingTruck.imei, minutesAgo(now, 20), 8, CLIENT),
    ...onTheRoad,
    ...parked(offlineTruck.imei, minutesAgo(now, 240), 30, DEPOT),
  ];
  await ingest(records.filter((record) => Date.parse(record.gps_datetime) <= now));
  return { user, parkedTruck, movingTruck, offlineTruck };
}
