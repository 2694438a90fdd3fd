/**
 * Addresses for one batch (or one addRoute) from the provider GEOCODING_PROVIDER names (amazon | google |
 * nominatim; gazetteer, the local default, means none). A place is looked up in the table's cache first, so
 * only a new place costs a provider call, and each cell is asked about once per batch however many trips end
 * there. A provider failure never fails the caller: the place gets no address (the chain falls back to the
 * gazetteer), the GeocodingFailures metric counts it and the batch logs its first one. The batch's budget bounds
 * the delay: each call at most GEOCODING_TIMEOUT_MS, at most GEOCODING_BATCH_CALLS calls, and none after
 * GEOCODING_BATCH_BUDGET_MS from the first.
 */
import { type Clock, systemClock } from '../../clock.ts';
import { config } from '../../config.ts';
import type { LatLng } from '../../domain/geo.ts';
import { cellOf, findGeocodedPlace, saveGeocodedPlace } from '../../store/geocoded-places.ts';
import { logger, MetricUnit, metricNames, metrics } from '../../telemetry.ts';
import { amazonPlacesProvider } from './amazon.ts';
import { googleGeocodingProvider } from './google.ts';
import { nominatimProvider } from './nominatim.ts';
import type { GeocodingProvider } from './provider.ts';

/** Addresses longer than a location's description may be (addRoute saves them as one) are cut there. */
export const MAX_ADDRESS_CHARS = 255;

const providers = new Map<string, (() => GeocodingProvider) | undefined>([
  ['gazetteer', undefined],
  ['amazon', amazonPlacesProvider],
  ['google', googleGeocodingProvider],
  ['nominatim', nominatimProvider],
]);

function geocodingProvider(): GeocodingProvider | undefined {
  const name = config.geocodingProvider();
  if (!providers.has(name)) throw new Error(`GEOCODING_PROVIDER must be one of ${[...providers.keys()].join(', ')}, not ${name}`);
  return providers.get(name)?.();
}

export class Geocoder {
  /** provider calls made or under way; with no provider, none is ever made */
  private calls = 0;
  private failures = 0;
  private readonly provider: GeocodingProvider | undefined;
  private readonly clock: Clock;
  private readonly byCell = new Map<string, Promise<string | undefined>>();
  private deadline: number | undefined;
  /** when the next call may start, for a provider with a rate limit */
  private nextStart = 0;

  constructor(provider: GeocodingProvider | undefined = geocodingProvider(), clock: Clock = systemClock) {
    this.provider = provider;
    this.clock = clock;
  }

  /** The provider's address for the point's cell, or undefined: no provider, no address there, a failure or no budget left. */
  address(point: LatLng): Promise<string | undefined> {
    const provider = this.provider;
    if (!provider) return Promise.resolve(undefined);
    const cell = cellOf(point);
    const id = `${cell.lat},${cell.lng}`;
    let found = this.byCell.get(id);
    if (!found) {
      found = this.lookUp(provider, cell);
      this.byCell.set(id, found);
    }
    return found;
  }

  private async lookUp(provider: GeocodingProvider, cell: LatLng): Promise<string | undefined> {
    const cached = await findGeocodedPlace(provider.name, cell);
    if (cached !== undefined) return cached ?? undefined;
    const timeoutMs = await this.startCall(provider);
    if (timeoutMs === undefined) return undefined;
    let address: string | undefined;
    try {
      address = (await provider.address(cell, timeoutMs))?.slice(0, MAX_ADDRESS_CHARS);
    } catch (error) {
      this.failed(provider, error);
      return undefined;
    }
    await saveGeocodedPlace(provider.name, cell, address ?? null);
    return address;
  }

  /** The time this call may take, or undefined when the batch's budget is spent. */
  private async startCall(provider: GeocodingProvider): Promise<number | undefined> {
    const now = this.clock.now();
    this.deadline ??= now + config.geocodingBatchBudgetMs();
    if (this.calls >= config.geocodingBatchCalls()) return undefined;
    const start = Math.max(now, this.nextStart);
    if (start >= this.deadline) return undefined;
    this.calls += 1;
    this.nextStart = start + (provider.minIntervalMs ?? 0);
    if (start > now) await this.clock.sleep(start - now);
    return Math.max(1, Math.min(config.geocodingTimeoutMs(), this.deadline - start));
  }

  private failed(provider: GeocodingProvider, error: unknown): void {
    this.failures += 1;
    metrics.addMetric(metricNames.geocodingFailures, MetricUnit.Count, 1);
    if (this.failures === 1) {
      logger.warn('reverse geocoding failed; the place is named by the gazetteer (later failures of this batch are counted, not logged)', {
        provider: provider.name,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
