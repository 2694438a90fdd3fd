/**
 * The reverse-geocoding cache (docs/positions-pipeline.md, "Place names"): a provider's answer for a cell of
 * coordinates rounded to 4 decimals (about 11 m), kept GEOCODING_CACHE_DAYS by DynamoDB TTL, so a depot is
 * geocoded once. "No address here" is cached too, so the provider is not asked again about the sea.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import type { LatLng } from '../domain/geo.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { tableDefinition } from './table-definition.ts';

/** 4 decimals: about 11 m of latitude, closer than two trips' ends at the same yard usually are. */
export const CELL_DECIMALS = 4;

/** The centre of the point's cell: what the provider is asked about, so every point of the cell gets one answer. */
export const cellOf = ({ lat, lng }: LatLng): LatLng => ({
  lat: Number(lat.toFixed(CELL_DECIMALS)) + 0,
  lng: Number(lng.toFixed(CELL_DECIMALS)) + 0,
});

const cellText = (cell: LatLng): string => `${cell.lat.toFixed(CELL_DECIMALS)},${cell.lng.toFixed(CELL_DECIMALS)}`;

/** The cached answer: an address, null when the provider knows none there, undefined when never asked (or expired). */
export async function findGeocodedPlace(provider: string, cell: LatLng): Promise<string | null | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.geocodedPlace(provider, cellText(cell)) }));
  // TTL deletion lags expiry by up to days: an expired item is a miss
  if (!Item || Number(Item[tableDefinition.ttlAttribute]) * 1000 <= Date.now()) return undefined;
  return typeof Item.address === 'string' ? Item.address : null;
}

export async function saveGeocodedPlace(provider: string, cell: LatLng, address: string | null): Promise<void> {
  const expiresAt = Math.floor(Date.now() / 1000) + config.geocodingCacheDays() * 86_400;
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.geocodedPlace(provider, cellText(cell)), address, [tableDefinition.ttlAttribute]: expiresAt },
    }),
  );
}
