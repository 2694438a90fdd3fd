import type { UserZones } from '../domain/events/zone-events.ts';
import type { ZoneIndex } from '../domain/events/zone-index.ts';
import type { LatLng } from '../domain/geo.ts';
import type { Operator } from '../domain/operator.ts';
import { MAX_DRIVER_TAG_CHARS } from '../domain/tracking/position.ts';
import type { UserLocation } from '../domain/user-location.ts';
import { namePlace } from '../places/place-name.ts';
import { Geocoder } from '../providers/geocoding/geocoder.ts';
import { findOperatorByTag } from '../store/operators.ts';
import { listVehicleUsers } from '../store/vehicles.ts';
import { currentUserZones } from './zone-cache.ts';

/**
 * Names places and drivers for one batch, reading each vehicle's users, their locations and each
 * tag's holder once: a place is the most specific location of the vehicle's user that contains it,
 * else as shared/places/place-name.ts names it (address, gazetteer, coordinates), within the batch's
 * geocoding budget; a driver is the tag's holder only when it is an operator of those users.
 * A shared vehicle's places are never named after a location: a trip or a fill is every linked user's,
 * while a location is one user's alone (docs/events.md, "Who sees an event").
 */
export class PlaceNamer {
  private readonly geocoder = new Geocoder();
  private readonly users = new Map<number, Promise<number[]>>();
  private readonly locations = new Map<number, Promise<readonly UserLocation[]>>();
  private readonly userZones = new Map<number, Promise<ZoneIndex>>();
  private readonly tagHolders = new Map<string, Promise<Operator | undefined>>();

  async placeName(vehicleUid: number, point: LatLng): Promise<string> {
    return namePlace(point, await this.vehicleLocations(vehicleUid), this.geocoder);
  }

  /**
   * Each linked user's zones, in user order, for the zone walk: a user's zones are that user's alone, so they are
   * walked apart (shared/domain/events/zone-events.ts). A user's index is read once per batch and kept across batches
   * while the user's locations stand (zone-cache.ts), so vehicles of the same users share it.
   */
  async zones(vehicleUid: number): Promise<UserZones[]> {
    const users = [...(await this.vehicleUsers(vehicleUid))].sort((a, b) => a - b);
    return Promise.all(users.map(async (userUid) => ({ userUid, index: await this.zonesOf(userUid) })));
  }

  private vehicleLocations(vehicleUid: number): Promise<readonly UserLocation[]> {
    let locations = this.locations.get(vehicleUid);
    if (!locations) {
      locations = this.vehicleUsers(vehicleUid).then(async (users) =>
        users.length === 1 ? (await this.zonesOf(users[0] as number)).zones : [],
      );
      this.locations.set(vehicleUid, locations);
    }
    return locations;
  }

  private zonesOf(userUid: number): Promise<ZoneIndex> {
    let zones = this.userZones.get(userUid);
    if (!zones) {
      zones = currentUserZones(userUid);
      this.userZones.set(userUid, zones);
    }
    return zones;
  }

  /**
   * The operator holding the tag now (when the batch is processed), if it belongs to one of the
   * vehicle's users: tag_id is unique across tenants, but another tenant's operator is never named.
   */
  async driver(vehicleUid: number, tagId: string | null): Promise<Operator | undefined> {
    // history stored before tags were bounded may hold one no key can: no operator holds it
    if (!tagId?.trim() || [...tagId].length > MAX_DRIVER_TAG_CHARS) return undefined;
    let holder = this.tagHolders.get(tagId);
    if (!holder) {
      holder = findOperatorByTag(tagId);
      this.tagHolders.set(tagId, holder);
    }
    const [operator, users] = await Promise.all([holder, this.vehicleUsers(vehicleUid)]);
    return operator && users.includes(operator.userUid) ? operator : undefined;
  }

  private vehicleUsers(vehicleUid: number): Promise<number[]> {
    let users = this.users.get(vehicleUid);
    if (!users) {
      users = listVehicleUsers(vehicleUid);
      this.users.set(vehicleUid, users);
    }
    return users;
  }
}
