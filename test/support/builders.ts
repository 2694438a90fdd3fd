/** Test data made through the same store calls the admin CLI and the pipeline use. */
import { randomBytes, randomInt } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { rateLimitDefaults } from '../../shared/config.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { changedFacts, type EmissionState, emitAll, noEmission, tripEvents } from '../../shared/domain/events/detection-events.ts';
import type { DecidedEvent, FleetEvent } from '../../shared/domain/events/event.ts';
import type { EventType } from '../../shared/domain/events/event-types.ts';
import { intervalMs } from '../../shared/domain/token-bucket.ts';
import type { Trip } from '../../shared/domain/trip.ts';
import type { LiveState, Vehicle } from '../../shared/domain/vehicle.ts';
import { createApiKey } from '../../shared/store/api-keys.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { nextId } from '../../shared/store/counters.ts';
import { keys } from '../../shared/store/keys.ts';
import { commitDetection, type DetectionCommit, findTrackedVehicles, saveTrack, type TrackedVehicle } from '../../shared/store/tracks.ts';
import { createUser } from '../../shared/store/users.ts';
import { addVehicle, linkVehicle, type NewVehicle } from '../../shared/store/vehicles.ts';

export interface TestUser {
  userUid: number;
  key: string;
  gmtOffsetMinutes: number;
}

/**
 * An IMEI no other test of the run holds: numbered by a counter in the run's one DynamoDB Local, shared by
 * every worker, so no two can meet (random digits could, once in a while).
 */
export const anImei = async (): Promise<string> => `359${String(await nextId('test-imei')).padStart(12, '0')}`;

/** For vehicles that are never stored (pure domain tests); givenVehicle gives each stored one a fresh IMEI. */
const UNSTORED_IMEI = '359999999999999';

export async function givenUser({ gmtOffsetMinutes = 0 } = {}): Promise<TestUser> {
  const user = await createUser(`Test user ${randomInt(1e6)}`, gmtOffsetMinutes);
  return { userUid: user.userUid, key: await createApiKey(user.userUid), gmtOffsetMinutes };
}

/** The key's bucket (at the deployed defaults) holding `left` requests (negative: empty for that many intervals more), as after a burst. */
export async function givenBucketWith(key: string, left: number): Promise<void> {
  const tat = Date.now() + (rateLimitDefaults.burst - left) * intervalMs(rateLimitDefaults);
  await dynamo().send(new PutCommand({ TableName: tableName(), Item: { ...keys.rateBucket(hashApiKey(key)), tat } }));
}

/** The key's bucket empty for `emptyForMs` more. */
export const givenDrainedBucket = (key: string, emptyForMs: number) => givenBucketWith(key, -emptyForMs / intervalMs(rateLimitDefaults));

export function aVehicle(overrides: Partial<NewVehicle> = {}): NewVehicle {
  return {
    imei: UNSTORED_IMEI,
    name: 'Truck 7',
    regNum: 'GP 77-77',
    vehGrp: 'North',
    deviceType: 'FMB920',
    config: '12',
    make: 'Isuzu',
    model: 'NPR 400',
    modelYear: '2020',
    vin: 'JALNPR1234567890A',
    odometerAtStart: 1000,
    odometerAtStartDate: '2026-01-01',
    startHours: 50,
    startHoursDate: '2026-01-01',
    licenceExpireDate: '2027-01-31',
    fuelCapacity: 120,
    fuelFactor: 1,
    ...overrides,
  };
}

export async function givenVehicle(user: TestUser, overrides: Partial<NewVehicle> = {}): Promise<Vehicle> {
  const vehicle = await addVehicle(aVehicle({ imei: await anImei(), ...overrides }));
  await linkVehicle(user.userUid, vehicle.vehicleUid);
  return vehicle;
}

export function aLiveState(overrides: Partial<LiveState> = {}): LiveState {
  return {
    lastResponse: '2026-11-01T06:00:05.000Z',
    gpsDatetime: '2026-11-01T06:00:00.000Z',
    latitude: -26.2041,
    longitude: 28.0473,
    speed: 42,
    heading: 180,
    driverId: '01A2B3C4',
    suppVolt: 13.8,
    intBattVolt: 4.1,
    intTemp: 31,
    extTemp: null,
    fuelValue: 60,
    deviceType: 'FMB920',
    config: '12',
    odometerKm: 1234.5,
    engineHours: 77,
    ...overrides,
  };
}

export async function givenLiveState(vehicle: Vehicle, overrides: Partial<LiveState> = {}): Promise<LiveState> {
  const live = aLiveState(overrides);
  const previousRevision = (await findTrackedVehicles([vehicle.imei])).get(vehicle.imei)?.revision ?? 0;
  await saveTrack(vehicle.vehicleUid, { live, tail: null, previousTail: undefined, previousRevision });
  return live;
}

export async function givenTrip(vehicle: Vehicle, overrides: Partial<Trip> = {}): Promise<Trip> {
  const trip: Trip = { ...(await aTrip(vehicle)), ...overrides };
  await commitDetected(vehicle.vehicleUid, { newTrips: [trip] });
  return trip;
}

async function aTrip(vehicle: Vehicle): Promise<Trip> {
  return {
    tripUid: await nextId('trip'),
    vehicleUid: vehicle.vehicleUid,
    startTime: '2026-11-01T06:00:00.000Z',
    stopTime: '2026-11-01T06:30:00.000Z',
    odometerAtStart: 1000,
    distanceKm: 21.5,
    durationS: 1800,
    maxSpeed: 88,
    fuelStart: 60,
    fuelEnd: 56.5,
    startLat: -26.2041,
    startLng: 28.0473,
    startLocation: 'Depot',
    stopLat: -26.1076,
    stopLng: 28.0567,
    stopLocation: 'Client',
    driverName: 'Thabo Mokoena',
    driverTagId: '01A2B3C4',
  };
}

/**
 * A trip stored with its events (trip.started, trip.completed) as the pipeline commits them, emitted at `emittedAt`
 * (default now) on from the vehicle's sequence.
 */
export async function givenTripWithEvents(
  vehicle: Vehicle,
  overrides: Partial<Trip> = {},
  emittedAt = new Date(),
): Promise<{ trip: Trip; events: FleetEvent[] }> {
  const trip: Trip = { ...(await aTrip(vehicle)), ...overrides };
  const tracked = (await findTrackedVehicles([vehicle.imei])).get(vehicle.imei);
  const previous = tracked?.emission ?? noEmission();
  const decided = changedFacts(vehicle.vehicleUid, { before: [], after: [trip] }, tripEvents);
  const { events, state } = emitAll(vehicle, decided, previous, emittedAt);
  await commitDetected(vehicle.vehicleUid, {
    newTrips: [trip],
    events,
    track: emissionMovedOn(tracked, previous, state),
    // appended when emitted: a test places its commits in time
    clock: () => emittedAt,
  });
  return { trip, events };
}

/** The track update of a commit that moves only the vehicle's emission on, its tail and revision as stored. */
function emissionMovedOn(tracked: TrackedVehicle | undefined, previous: EmissionState, next: EmissionState) {
  const tail = tracked?.storedTail;
  return {
    live: undefined,
    tail: tail ?? null,
    previousTail: tail,
    previousRevision: tracked?.revision ?? 0,
    emission: { previous, next },
  };
}

/**
 * Decided events emitted and committed as a detection commits them (the vehicle's emission moves on), appended to
 * the feeds when emitted: a zone fact carries its `audience`.
 */
export async function givenDecidedEvents(vehicle: Vehicle, decided: DecidedEvent[], emittedAt = new Date()): Promise<FleetEvent[]> {
  const tracked = (await findTrackedVehicles([vehicle.imei])).get(vehicle.imei);
  const previous = tracked?.emission ?? noEmission();
  const { events, state, audiences } = emitAll(vehicle, decided, previous, emittedAt);
  await commitDetected(vehicle.vehicleUid, {
    events,
    audiences,
    track: emissionMovedOn(tracked, previous, state),
    clock: () => emittedAt,
  });
  return events;
}

/** A decided event of a type at an instant: a zone fact when `audience` (the zone's owner) and `zone` are given. */
export function aDecidedEvent(
  type: EventType,
  occurredAt: string,
  { audience, zone }: { audience?: number; zone?: number } = {},
): DecidedEvent {
  return {
    type,
    occurredAt,
    subject: zone === undefined ? `test:${occurredAt}` : `zone:${zone}`,
    latitude: -26.2041,
    longitude: 28.0473,
    fields: zone === undefined ? {} : { user_location_uid: zone, description: `Zone ${zone}` },
    ...(audience === undefined ? {} : { audience }),
  };
}

/** An event object as emitted, not stored: `sequence` the vehicle's. */
export function aFleetEvent(
  vehicle: Vehicle,
  sequence: number,
  { type = 'trip.started', at = new Date() }: { type?: EventType; at?: Date } = {},
): FleetEvent {
  return {
    event_id: `evt_${randomBytes(16).toString('hex')}`,
    type,
    timestamp: at.toISOString(),
    data: {
      vehicle_uid: vehicle.vehicleUid,
      imei: vehicle.imei,
      vehicle_name: vehicle.name,
      occurred_at: at.toISOString().slice(0, 19).replace('T', ' '),
      sequence,
      late: 0,
      latitude: -26.2041,
      longitude: 28.0473,
    },
  };
}

/** Stores trips and fills as a detection does, through the pipeline's own commit. */
export async function commitDetected(
  vehicleUid: number,
  found: Pick<Partial<DetectionCommit>, 'newTrips' | 'newFills' | 'events' | 'track' | 'clock' | 'audiences'>,
): Promise<void> {
  await commitDetection({
    vehicleUid,
    track: undefined,
    changedTrips: [],
    removedTrips: [],
    changedFills: [],
    removedFills: [],
    newTrips: [],
    newFills: [],
    savedDrops: [],
    removedDrops: [],
    events: [],
    ...found,
  });
}
