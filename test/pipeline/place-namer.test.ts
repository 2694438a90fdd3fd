/** How the pipeline names a trip's and a fill's places and driver, as getTrips and getFuelFillReport show them. */
import { describe, expect, it } from 'vitest';
import { linkVehicle } from '../../shared/store/vehicles.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { anOperator, aTagId } from '../support/operators-builders.ts';
import { CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';
import { SQUARE_AROUND_DEPOT } from '../support/user-locations-builders.ts';

const DAY = '2026-11-04';

/** Driven from the client to the depot, then parked at 40 L and filled to 100 L, every record carrying the tag. */
function aTripAndAFillAtTheDepot(imei: string, overrides: Record<string, unknown>) {
  const trip = drive(imei, `${DAY}T06:00:00.000Z`, 20, CLIENT, DEPOT, { fuel_raw: 40, ...overrides });
  const before = parked(imei, `${DAY}T07:00:00.000Z`, 15, DEPOT, { fuel_raw: 40, ...overrides });
  const filling = [45, 60, 75, 90, 100].map(
    (fuel, i) =>
      parked(imei, new Date(Date.parse(`${DAY}T07:15:00.000Z`) + i * 36_000).toISOString(), 1, DEPOT, { fuel_raw: fuel, ...overrides })[0]!,
  );
  const after = parked(imei, `${DAY}T07:18:00.000Z`, 15, DEPOT, { fuel_raw: 100, ...overrides });
  return [...trip.records, ...before, ...filling, ...after];
}

async function tripsAndFills(user: TestUser, vehicleUid: number) {
  const [trips, report] = await Promise.all([
    api.get('getTrips', { api_key: user.key, start_date: DAY, end_date: DAY }),
    api.get('getFuelFillReport', { api_key: user.key, vehicle_uid: vehicleUid, start_date: DAY, end_date: DAY }),
  ]);
  expect(trips).toBeSuccess();
  expect(report).toBeSuccess();
  return { trips: trips.body.vehicles[0].trips, fills: report.body.fills };
}

describe('drivers', () => {
  it("never names another tenant's operator who holds the tag the vehicle reports", async () => {
    // Prepare
    const [owner, stranger] = await Promise.all([givenUser(), givenUser()]);
    const vehicle = await givenVehicle(owner);
    const tag = aTagId();
    const foreign = await api.post('addOperator', { ...anOperator({ tag_id: tag, fullname: 'Someone Else' }), api_key: stranger.key });
    expect(foreign).toBeSuccess();
    // Act
    const outcome = await ingest(aTripAndAFillAtTheDepot(vehicle.imei, { driver_tag_id: tag }));
    // Assess
    expect(outcome).toMatchObject({ trips: 1, fills: 1, failedIds: [] });
    const { trips, fills } = await tripsAndFills(owner, vehicle.vehicleUid);
    expect(trips).toEqual([expect.objectContaining({ driver_name: null, driver_tag_id: tag })]);
    expect(fills).toEqual([expect.objectContaining({ operator_uid: null, operator_name: null })]);
  });

  it("names the vehicle's own user's operator who holds the tag", async () => {
    // Prepare
    const owner = await givenUser();
    const vehicle = await givenVehicle(owner);
    const tag = aTagId();
    const own = await api.post('addOperator', { ...anOperator({ tag_id: tag, fullname: 'Anele Dlamini' }), api_key: owner.key });
    // Act
    await ingest(aTripAndAFillAtTheDepot(vehicle.imei, { driver_tag_id: tag }));
    // Assess
    const { trips, fills } = await tripsAndFills(owner, vehicle.vehicleUid);
    expect(trips).toEqual([expect.objectContaining({ driver_name: 'Anele Dlamini', driver_tag_id: tag })]);
    expect(fills).toEqual([expect.objectContaining({ operator_uid: own.body.operator_uid, operator_name: 'Anele Dlamini' })]);
  });
});

describe('places', () => {
  it('are named by the most specific containing location, whichever was saved first', async () => {
    // Prepare: the wide region first, then the yard around the depot, then the fuel bay inside it
    const owner = await givenUser();
    const vehicle = await givenVehicle(owner);
    const save = (params: Record<string, unknown>) =>
      api.post('addUserLocation', { api_key: owner.key, latitude: DEPOT.lat, longitude: DEPOT.lng, ...params });
    expect(await save({ description: 'Gauteng', radius: 60 })).toBeSuccess();
    expect(await save({ description: 'Yard', location_type: 'polygon', points: JSON.stringify(SQUARE_AROUND_DEPOT) })).toBeSuccess();
    expect(await save({ description: 'Fuel bay', radius: 0.05 })).toBeSuccess();
    // Act
    await ingest(aTripAndAFillAtTheDepot(vehicle.imei, {}));
    // Assess
    const { trips, fills } = await tripsAndFills(owner, vehicle.vehicleUid);
    expect(trips).toEqual([expect.objectContaining({ start_location: 'Gauteng', stop_location: 'Fuel bay' })]);
    expect(fills).toEqual([expect.objectContaining({ location: 'Fuel bay' })]);
  });

  it("of a shared vehicle are never named after one user's location, which the other user must not see", async () => {
    // Prepare: the owner's yard around the depot; the vehicle shared with a partner who has no locations
    const [owner, partner] = await Promise.all([givenUser(), givenUser()]);
    const vehicle = await givenVehicle(owner);
    await linkVehicle(partner.userUid, vehicle.vehicleUid);
    const yard = await api.post('addUserLocation', {
      api_key: owner.key,
      latitude: DEPOT.lat,
      longitude: DEPOT.lng,
      description: 'Owner yard',
      location_type: 'polygon',
      points: JSON.stringify(SQUARE_AROUND_DEPOT),
    });
    expect(yard).toBeSuccess();
    // Act
    await ingest(aTripAndAFillAtTheDepot(vehicle.imei, {}));
    // Assess: both users see the same trip and fill, named without the owner's location
    const [seenByOwner, seenByPartner] = await Promise.all([
      tripsAndFills(owner, vehicle.vehicleUid),
      tripsAndFills(partner, vehicle.vehicleUid),
    ]);
    expect(seenByPartner).toEqual(seenByOwner);
    expect(seenByPartner.trips).toHaveLength(1);
    expect(JSON.stringify(seenByPartner)).not.toContain('Owner yard');
  });
});
