/**
 * Amazon Location Service Places: ReverseGeocode (POST /v2/reverse-geocode) with the function's IAM role, no key.
 * The nearest result's Address.Label (its Title when there is no label). IntendedUse is Storage because the name
 * is stored with the trip and cached, which Amazon Location's terms require to be declared.
 */
import type { GeoPlacesClient } from '@aws-sdk/client-geo-places';
import { config } from '../../config.ts';
import type { LatLng } from '../../domain/geo.ts';
import { ProviderFailed } from '../../errors.ts';
import { tracer } from '../../telemetry.ts';
import { amazonLocationClientSettings, amazonLocationFailure } from '../amazon-location.ts';
import { addressText, type GeocodingProvider, geocodingLabel } from './provider.ts';

const NAME = 'amazon';
let client: GeoPlacesClient | undefined;

/**
 * One attempt: the batch's time budget, not retries, decides how long a place may take. The SDK module is loaded
 * on first use, so functions configured for another provider (or none) never pay for it at cold start.
 */
async function placesClient(): Promise<GeoPlacesClient> {
  const { GeoPlacesClient: Client } = await import('@aws-sdk/client-geo-places');
  client ??= tracer.captureAWSv3Client(new Client({ maxAttempts: 1, ...amazonLocationClientSettings(config.amazonPlacesEndpoint()) }));
  return client;
}

export function amazonPlacesProvider(): GeocodingProvider {
  return {
    name: NAME,
    async address({ lat, lng }: LatLng, timeoutMs: number) {
      const { ReverseGeocodeCommand } = await import('@aws-sdk/client-geo-places');
      const command = new ReverseGeocodeCommand({ QueryPosition: [lng, lat], MaxResults: 1, IntendedUse: 'Storage' });
      const answer = await (await placesClient()).send(command, { abortSignal: AbortSignal.timeout(timeoutMs) }).catch((error: unknown) => {
        throw amazonLocationFailure(geocodingLabel(NAME), error, timeoutMs);
      });
      const [nearest] = answer.ResultItems ?? [];
      if (!nearest) return undefined;
      const address = addressText(nearest.Address?.Label) ?? addressText(nearest.Title);
      if (!address) throw new ProviderFailed(`${geocodingLabel(NAME)} gave an unexpected answer`);
      return address;
    },
  };
}
