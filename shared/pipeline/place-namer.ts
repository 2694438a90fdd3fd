import type { LatLng } from '../domain/geo.ts';
import type { Operator } from '../domain/operator.ts';
import { findLocationAt, type UserLocation } from '../domain/user-location.ts';
import { findOperatorByTag } from '../store/operators.ts';
import { listVehicleUsers } from '../store/tracks.ts';
import { listUserLocations } from '../store/user-locations.ts';

/**
 * Names places and drivers for one batch, reading each vehicle's users' locations and each tag's
 * operator once: a place is the first containing location of the vehicle's users, else its coordinates.
 */
export class PlaceNamer {
  private readonly locations = new Map<number, Promise<UserLocation[]>>();
  private readonly drivers = new Map<string, Promise<Operator | undefined>>();

  async placeName(vehicleUid: number, point: LatLng): Promise<string> {
    let locations = this.locations.get(vehicleUid);
    if (!locations) {
      locations = listVehicleUsers(vehicleUid).then(async (users) => (await Promise.all(users.map(listUserLocations))).flat());
      this.locations.set(vehicleUid, locations);
    }
    return findLocationAt(await locations, point)?.description ?? coordinatesText(point);
  }

  /** The operator holding the tag now, i.e. at the time the batch is processed. */
  driver(tagId: string | null): Promise<Operator | undefined> {
    if (!tagId) return Promise.resolve(undefined);
    let driver = this.drivers.get(tagId);
    if (!driver) {
      driver = findOperatorByTag(tagId);
      this.drivers.set(tagId, driver);
    }
    return driver;
  }
}

export const coordinatesText = ({ lat, lng }: LatLng): string => `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
