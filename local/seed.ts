/**
 * Demo data for `npm start`: one user (GMT+2), its API key, three vehicles, the places they visit as
 * saved locations (the depot a polygon), a speed-limited and a no-go zone on their routes, two drivers, expense
 * types and slips, and yesterday simulated
 * (up to now, never later) and run through the real positions pipeline, so trips, fills and live data are
 * what the code detected. Each vehicle parks overnight at its own base, so the live map shows all three.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { hashApiKey } from '../shared/domain/api-key.ts';
import { formatDateTime } from '../shared/domain/time.ts';
import { newLocation } from '../shared/domain/user-location.ts';
import { ingestRecords } from '../shared/pipeline/ingest.ts';
import { createApiKey, findApiKey } from '../shared/store/api-keys.ts';
import { addExpenseSlip, addFillSlip } from '../shared/store/expense-slips.ts';
import { addExpenseType } from '../shared/store/expense-types.ts';
import { listFuelFills } from '../shared/store/fuel-fills.ts';
import { addOperator } from '../shared/store/operators.ts';
import { addUserLocation } from '../shared/store/user-locations.ts';
import { createUser } from '../shared/store/users.ts';
import { addVehicle, linkVehicle, type NewVehicle } from '../shared/store/vehicles.ts';
import { demoFleetDay, demoZones, interleave, places, recordsUntil } from '../simulator/index.ts';
import { createLocalAccount, linkLocalAccount } from './oidc/accounts.ts';

/** The demo person, who signs in to the console (docs/console.md); the password is drawn at the first seed. */
export const DEMO_PERSON_EMAIL = 'demo@fleet.example';

export interface DemoAccount {
  apiKey: string;
  personEmail: string;
  personPassword: string;
  userUid: number;
  imeis: string[];
  vehicleUids: number[];
  /** the simulated day, yyyy-mm-dd */
  day: string;
}

const DEMO_OFFSET_MINUTES = 120;

const demoVehicles: NewVehicle[] = [
  {
    imei: '356307042441013',
    name: 'Truck 01',
    regNum: 'CA 123-456',
    vehGrp: 'Long haul',
    deviceType: 'FMB920',
    config: '12',
    make: 'Isuzu',
    model: 'FTR 850',
    modelYear: '2021',
    vin: 'JALFTR34HM7000123',
    odometerAtStart: 120345,
    odometerAtStartDate: '2026-01-15',
    startHours: 4210,
    startHoursDate: '2026-01-15',
    licenceExpireDate: '2027-03-31',
    fuelCapacity: 200,
    fuelFactor: 1,
  },
  {
    imei: '356307042441021',
    name: 'Van 02',
    regNum: 'CA 234-567',
    vehGrp: 'Deliveries',
    deviceType: 'FMB920',
    config: '12',
    make: 'Toyota',
    model: 'Quantum 2.8 GL',
    modelYear: '2022',
    vin: 'AHTSS22P907001234',
    odometerAtStart: 64210,
    odometerAtStartDate: '2026-02-01',
    startHours: 1830,
    startHoursDate: '2026-02-01',
    licenceExpireDate: '2027-06-30',
    fuelCapacity: 70,
    fuelFactor: 1.02,
  },
  {
    // No ignition wire on this one: its trips come from movement alone.
    imei: '356307042441039',
    name: 'Bakkie 03',
    regNum: 'CA 345-678',
    vehGrp: 'Deliveries',
    deviceType: 'FMC130',
    config: '7',
    make: 'Ford',
    model: 'Ranger 2.0 XLT',
    modelYear: '2023',
    vin: 'AFAPXXMJ2PN012345',
    odometerAtStart: 31877,
    odometerAtStartDate: '2026-03-10',
    startHours: null,
    startHoursDate: null,
    licenceExpireDate: null,
    fuelCapacity: 80,
    fuelFactor: 1,
    detection: { useIgnition: false },
  },
];

const demoDrivers = [
  { fullname: 'Thabo Mokoena', idNumber: '8001015009087', tagId: '01A2B3C4', mobileNumber: '+27 82 555 0101', employeeNumber: 'EMP-0042' },
  { fullname: 'Anele Dlamini', idNumber: '9106230234081', tagId: '01D5E6F7', mobileNumber: '+27 83 555 0199', employeeNumber: 'EMP-0057' },
];

/** Seeds once; later starts reuse the account recorded in `stateFile` while its key still exists. */
export async function seedDemo(stateFile: string, issuer: string): Promise<DemoAccount> {
  if (existsSync(stateFile)) {
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as DemoAccount;
    if (saved.day && (await findApiKey(hashApiKey(saved.apiKey)))) return withDemoPerson(stateFile, saved, issuer);
  }
  const user = await createUser('Demo Fleet', DEMO_OFFSET_MINUTES);
  const apiKey = await createApiKey(user.userUid);
  const vehicleUids: number[] = [];
  for (const details of demoVehicles) {
    const vehicle = await addVehicle(details);
    await linkVehicle(user.userUid, vehicle.vehicleUid);
    vehicleUids.push(vehicle.vehicleUid);
  }
  await seedPlacesAndPeople(user.userUid);
  const day = new Date(Date.now() + DEMO_OFFSET_MINUTES * 60_000 - 86_400_000).toISOString().slice(0, 10);
  const imeis = demoVehicles.map((vehicle) => vehicle.imei);
  await ingestRecords(
    recordsUntil(interleave(demoFleetDay(day, imeis, 2026)), Date.now()).map((record) => JSON.stringify(record)),
    `seed-${day}`,
  );
  await seedSlips(user.userUid, vehicleUids, day);
  const { password } = await createLocalAccount(user.userUid, DEMO_PERSON_EMAIL, issuer);
  const account: DemoAccount = {
    apiKey,
    userUid: user.userUid,
    imeis,
    vehicleUids,
    day,
    personEmail: DEMO_PERSON_EMAIL,
    personPassword: password,
  };
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify(account, null, 2)}\n`);
  return account;
}

/** The demo person signs in under this start's issuer; a .local/ seeded before people signed in gets its person now. */
async function withDemoPerson(stateFile: string, saved: DemoAccount, issuer: string): Promise<DemoAccount> {
  if (saved.personPassword && (await linkLocalAccount(saved.userUid, DEMO_PERSON_EMAIL, issuer))) return saved;
  const { password } = await createLocalAccount(saved.userUid, DEMO_PERSON_EMAIL, issuer);
  const account = { ...saved, personEmail: DEMO_PERSON_EMAIL, personPassword: password };
  writeFileSync(stateFile, `${JSON.stringify(account, null, 2)}\n`);
  return account;
}

async function seedPlacesAndPeople(userUid: number): Promise<void> {
  for (const place of places) {
    const isDepot = place.name === 'Depot Midrand';
    // rounded to the 4 decimals of the place itself: no float noise like -25.996200000000002 in the answers
    const corner = (value: number, offset: number) => Number((value + offset).toFixed(4));
    const square = [-1, 1].flatMap((dLat) =>
      [-1, 1].map((dLng) => ({ lat: corner(place.lat, dLat * 0.003), lng: corner(place.lng, dLng * dLat * 0.003) })),
    );
    await addUserLocation(
      userUid,
      newLocation({
        description: place.name,
        latitude: place.lat,
        longitude: place.lng,
        radius: 0.4,
        ...(isDepot ? { location_type: 'polygon', points: square, color: 'green' } : {}),
      }),
    );
  }
  // zone and speeding events on the demo routes (docs/events.md)
  for (const zone of demoZones()) await addUserLocation(userUid, newLocation(zone));
  for (const driver of demoDrivers) {
    await addOperator(userUid, {
      ...driver,
      defaultTripType: 0,
      activeFlag: 1,
      homeNumber: '',
      currentPoints: '0',
      homeAddress: '',
      nextOfKin: '',
      nextOfKinContactNumber: '',
      emailAddress: '',
      driverLicenceExpiry: '2027-05-31',
      pdpExpiry: '2026-12-31',
      dgpExpiry: '2001-01-01',
      mcExpiry: '2001-01-01',
    });
  }
}

/** Expense types, a fuel and a toll slip, and the slip of the truck's first detected fill. */
async function seedSlips(userUid: number, [truck, van]: number[], day: string): Promise<void> {
  const tolls = await addExpenseType(userUid, 'Tolls');
  await addExpenseType(userUid, 'Parking');
  await addExpenseSlip(userUid, {
    vehicleUid: van as number,
    type: 2,
    amount: '812.40',
    qty: '38.500',
    slipNumber: 'DEPOT-0002',
    eventDatetime: `${day} 10:55:00`,
    comment: 'Depot pump',
  });
  await addExpenseSlip(userUid, {
    vehicleUid: truck as number,
    type: tolls.type,
    amount: '61.00',
    qty: '0',
    slipNumber: 'N1-0931',
    eventDatetime: `${day} 08:10:00`,
    comment: 'Midrand plaza',
  });
  const [fill] = await listFuelFills(truck as number, `${day}T00:00:00.000Z`, `${day}T23:59:59.999Z`);
  if (fill) {
    await addFillSlip({
      eventUid: fill.eventUid,
      vehicleUid: fill.vehicleUid,
      qty: fill.fillQty.toFixed(1),
      amount: (fill.fillQty * 22.85).toFixed(2),
      slipNumber: 'DEPOT-0001',
      eventDatetime: formatDateTime(fill.at, DEMO_OFFSET_MINUTES),
    });
  }
}
