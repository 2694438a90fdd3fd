/**
 * What every directions provider does: measure the legs between consecutive points. Each adapter
 * speaks its provider's wire format and reads its configuration from the environment at call time.
 */
import type { LatLng } from '../../domain/geo.ts';
import type { LegMeasure } from '../../domain/route/rules.ts';
import { ProviderFailed } from '../../errors.ts';
import { providerJson, unexpectedAnswer as unexpected } from '../provider-request.ts';

export interface DirectionsProvider {
  /** what a route reports as its directions_source */
  readonly name: string;
  /** the provider's base URL, part of the cache key; absent for a provider with nothing worth caching */
  readonly endpoint?: string;
  legs(points: readonly LatLng[]): Promise<LegMeasure[]>;
}

/** The label in a provider's error messages (providerRequest's own included). */
const providerLabel = (name: string): string => `directions provider ${name}`;

/** Fetches and parses the provider's JSON answer; a body that is not JSON is the provider's failure. */
export const fetchJson = (name: string, url: URL): Promise<Record<string, unknown>> => providerJson(providerLabel(name), url);

export const unexpectedAnswer = (name: string): ProviderFailed => unexpected(providerLabel(name));

/** A provider's status word, in a message only when it looks like one (never free text from the provider). */
export const refusal = (name: string, field: string, status: unknown): ProviderFailed =>
  typeof status === 'string' && /^[A-Za-z_]{1,40}$/.test(status)
    ? new ProviderFailed(`${providerLabel(name)} answered ${field} ${status}`)
    : unexpectedAnswer(name);

/** The legs a provider returned, in metres and seconds: one per pair of consecutive points, or its failure. */
export function measuredLegs(
  name: string,
  legs: unknown,
  expected: number,
  read: (leg: Record<string, unknown>) => unknown[],
): LegMeasure[] {
  if (!Array.isArray(legs) || legs.length !== expected) throw unexpectedAnswer(name);
  return legs.map((leg: unknown) => {
    const [metres, seconds] = typeof leg === 'object' && leg !== null ? read(leg as Record<string, unknown>) : [];
    if (!isMeasure(metres) || !isMeasure(seconds)) throw unexpectedAnswer(name);
    return { distanceKm: metres / 1000, durationS: seconds };
  });
}

const isMeasure = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
