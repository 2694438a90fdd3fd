/**
 * What every reverse-geocoding provider does: the address at a point. Each adapter speaks its provider's wire
 * format and reads its configuration at call time; `undefined` means the provider knows no address there, and
 * every failure (HTTP error, timeout, unreadable answer) is thrown as ProviderFailed for the Geocoder to absorb.
 */
import type { LatLng } from '../../domain/geo.ts';

export interface GeocodingProvider {
  /** part of the cache key: another provider's answers are never served for this one */
  readonly name: string;
  /** the least time between two calls, for a provider whose usage policy limits the rate */
  readonly minIntervalMs?: number;
  address(point: LatLng, timeoutMs: number): Promise<string | undefined>;
}

/** The label in a provider's failure messages. */
export const geocodingLabel = (name: string): string => `geocoding provider ${name}`;

/** An address as a provider wrote it: trimmed text, or undefined when it is not text. */
export const addressText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
