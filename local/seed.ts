/**
 * Demo data for `npm start`: one user (GMT+2), its API key, three vehicles with live records,
 * a few trips on each of the last two days and two expense types, written through the store.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { distanceKm } from '../shared/domain/geo.ts';
import type { Trip } from '../shared/domain/trip.ts';
import type { NewVehicle } from '../shared/store/vehicles.ts';
import { hashApiKey } from '../shared/middleware/api-key-auth.ts';
import { createApiKey, findApiKey } from '../shared/store/api-keys.ts';
import { nextId } from '../shared/store/counters.ts';
import { addExpenseType } from '../shared/store/expense-types.ts';
import { saveTrip } from '../shared/store/trips.ts';
import { createUser } from '../shared/store/users.ts';
import { addVehicle, linkVehicle, saveLiveState } from '../shared/store/vehicles.ts';

export interface DemoAccount {
  apiKey: string;
  userUid: number;
  imeis: string[];
}

const DEMO_OFFSET_MINUTES = 120;

const demoVehicles: NewVehicle[] = [
  {
    imei: '356307042441013', name: 'Truck 01', regNum: 'CA 123-456', vehGrp: 'Long haul', deviceType: 'FMB920', config: '12',
    make: 'Isuzu', model: 'FTR 850', modelYear: '2021', vin: 'JALFTR34HM7000123', startOdo: 120345, startOdoDate: '2026-01-15',
    startHours: 4210, startHoursDate: '2026-01-15', licenceExpireDate: '2027-03-31', fuelCapacity: 200, fuelFactor: 1,
  },
  {
    imei: '356307042441021', name: 'Van 02', regNum: 'CA 234-567', vehGrp: 'Deliveries', deviceType: 'FMB920', config: '12',
    make: 'Toyota', model: 'Quantum 2.8 GL', modelYear: '2022', vin: 'AHTSS22P907001234', startOdo: 64210, startOdoDate: '2026-02-01',
    startHours: 1830, startHoursDate: '2026-02-01', licenceExpireDate: '2027-06-30', fuelCapacity: 70, fuelFactor: 1.02,
  },
  {
    imei: '356307042441039', name: 'Bakkie 03', regNum: 'CA 345-678', vehGrp: 'Deliveries', deviceType: 'FMC130', config: '7',
    make: 'Ford', model: 'Ranger 2.0 XLT', modelYear: '2023', vin: 'AFAPXXMJ2PN012345', startOdo: 31877, startOdoDate: '2026-03-10',
    startHours: null, startHoursDate: null, licenceExpireDate: null, fuelCapacity: 80, fuelFactor: 1,
  },
];

/** Depot, customers and a fuel stop around Johannesburg: where the demo trips start and stop. */
const places = [
  { name: 'Depot Midrand', lat: -25.9992, lng: 28.1263 },
  { name: 'Client Sandton', lat: -26.1076, lng: 28.0567 },
  { name: 'Client Kempton Park', lat: -26.1015, lng: 28.2308 },
  { name: 'Fuel stop Woodmead', lat: -26.0536, lng: 28.0936 },
];

/** Seeds once; later starts reuse the account recorded in `stateFile` while its key still exists. */
export async function seedDemo(stateFile: string): Promise<DemoAccount> {
  if (existsSync(stateFile)) {
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as DemoAccount;
    if (await findApiKey(hashApiKey(saved.apiKey))) return saved;
  }
  const user = await createUser('Demo Fleet', DEMO_OFFSET_MINUTES);
  const apiKey = await createApiKey(user.userUid);
  for (const [index, details] of demoVehicles.entries()) {
    const vehicle = await addVehicle(details);
    await linkVehicle(user.userUid, vehicle.vehicleUid);
    await seedHistory(vehicle.vehicleUid, index, details);
  }
  await addExpenseType(user.userUid, 'Tolls');
  await addExpenseType(user.userUid, 'Parking');
  const account = { apiKey, userUid: user.userUid, imeis: demoVehicles.map((vehicle) => vehicle.imei) };
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify(account, null, 2)}\n`);
  return account;
}

const HOUR_MS = 3_600_000;

/** Three trips a day on the last two days (user's calendar), then the live record at the last stop. */
async function seedHistory(vehicleUid: number, index: number, details: NewVehicle): Promise<void> {
  const userToday = new Date(Date.now() + DEMO_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
  const dayStartUtc = Date.parse(`${userToday}T00:00:00Z`) - DEMO_OFFSET_MINUTES * 60_000;
  let odometer = details.startOdo ?? 0;
  let fuel = (details.fuelCapacity ?? 60) * 0.8;
  let last = places[0]!;
  let lastTime = dayStartUtc - 2 * 24 * HOUR_MS;
  for (const daysAgo of [2, 1]) {
    for (const [leg, startHour] of [7, 11, 15].entries()) {
      const from = last;
      const to = places[(leg + index + 1) % places.length]!;
      const start = dayStartUtc - daysAgo * 24 * HOUR_MS + (startHour + index * 0.25) * HOUR_MS;
      const legKm = Math.round(distanceKm(from, to) * 1.3 * 100) / 100;
      const durationS = Math.round((legKm / 42) * 3600);
      const fuelUsed = legKm * 0.18;
      const trip: Trip = {
        tripUid: await nextId('trip'), vehicleUid,
        startTime: new Date(start).toISOString(), stopTime: new Date(start + durationS * 1000).toISOString(),
        startOdo: odometer, distanceKm: legKm, durationS, maxSpeed: 70 + leg * 8 + index * 3,
        fuelStart: fuel, fuelEnd: fuel - fuelUsed,
        startLat: from.lat, startLng: from.lng, startLocation: from.name,
        stopLat: to.lat, stopLng: to.lng, stopLocation: to.name,
        driverName: index === 2 ? null : ['Thabo Mokoena', 'Anele Dlamini'][index]!, driverTagId: index === 2 ? null : ['01A2B3C4', '01D5E6F7'][index]!,
      };
      await saveTrip(trip);
      odometer += legKm;
      fuel -= fuelUsed;
      last = to;
      lastTime = start + durationS * 1000;
    }
  }
  const reported = new Date(lastTime).toISOString();
  await saveLiveState(vehicleUid, {
    lastResponse: reported, gpsDatetime: reported, latitude: last.lat, longitude: last.lng, speed: 0, heading: 90,
    driverId: index === 2 ? null : ['01A2B3C4', '01D5E6F7'][index]!, suppVolt: 13.7, intBattVolt: 4.1, intTemp: 31, extTemp: null,
    fuelValue: Math.round(fuel * 10) / 10, deviceType: details.deviceType, config: details.config,
    odometerKm: Math.round(odometer * 10) / 10, engineHours: details.startHours,
  });
}
