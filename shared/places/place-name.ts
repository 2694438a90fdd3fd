/**
 * How a place is named wherever the service names one (trips' start and stop, fuel fills, addRoute's new stops):
 * the most specific saved zone that contains it, else the reverse-geocoding
 * provider's address, else the offline gazetteer's "3.2 km NE of Midrand, ZA", else its coordinates.
 */

import type { LatLng } from '../domain/geo.ts';
import { mostSpecificLocationAt, type UserLocation } from '../domain/user-location.ts';
import { logger } from '../logger.ts';
import { describeNearTown, nearestTown } from '../providers/gazetteer.ts';
import type { Geocoder } from '../providers/geocoding/geocoder.ts';

/** The place's name, given the saved zones that may contain it (a vehicle's users', or the caller's). */
export async function namePlace(point: LatLng, zones: readonly UserLocation[], geocoder: Geocoder): Promise<string> {
  return (
    mostSpecificLocationAt(zones, point)?.description ?? (await geocoder.address(point)) ?? nearTownName(point) ?? coordinatesText(point)
  );
}

/**
 * The gazetteer loads on the first place it names: a synchronous index of its file (one pass, about 35 ms of CPU), short
 * beside the SDK's request timeout of 1.5 s, so a container whose batches name no place outside the zones never loads it.
 */
let gazetteerFailed = false;

function gazetteerUnavailable(error: unknown): void {
  gazetteerFailed = true;
  logger.error('the offline gazetteer could not load; places outside zones and without an address are named by coordinates', {
    error: error as Error,
  });
}

/** The gazetteer's name, or undefined far from every town (or, logged once per container, when its data cannot load). */
function nearTownName(point: LatLng): string | undefined {
  if (gazetteerFailed) return undefined;
  try {
    const near = nearestTown(point);
    return near && describeNearTown(near);
  } catch (error) {
    gazetteerUnavailable(error);
    return undefined;
  }
}

export const coordinatesText = ({ lat, lng }: LatLng): string => `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
