/**
 * Google Geocoding, reverse: GET <base>?latlng=lat,lng&key=K. The first result's formatted_address; `status`
 * ZERO_RESULTS is "no address here", any other status but OK a failure. The URL carries the key, so it never
 * appears in a message, a log line or the cache key.
 */
import { config } from '../../config.ts';
import type { LatLng } from '../../domain/geo.ts';
import { ProviderFailed } from '../../errors.ts';
import { googleApiKey } from '../google-api-key.ts';
import { providerJson, unexpectedAnswer } from '../provider-request.ts';
import { addressText, type GeocodingProvider, geocodingLabel } from './provider.ts';

const NAME = 'google';
const LABEL = geocodingLabel(NAME);
const DEFAULT_URL = 'https://maps.googleapis.com/maps/api/geocode/json';

export function googleGeocodingProvider(): GeocodingProvider {
  const base = config.googleGeocodingUrl() ?? DEFAULT_URL;
  return {
    name: NAME,
    async address({ lat, lng }: LatLng, timeoutMs: number) {
      const url = new URL(base);
      url.searchParams.set('latlng', `${lat},${lng}`);
      url.searchParams.set('key', await googleGeocodingKey());
      const answer = await providerJson(LABEL, url, timeoutMs);
      if (answer.status === 'ZERO_RESULTS') return undefined;
      if (answer.status !== 'OK') {
        throw typeof answer.status === 'string' && /^[A-Z_]{1,40}$/.test(answer.status)
          ? new ProviderFailed(`${LABEL} answered status ${answer.status}`)
          : unexpectedAnswer(LABEL);
      }
      const [first] = Array.isArray(answer.results) ? (answer.results as Array<Record<string, unknown>>) : [];
      const address = addressText(first?.formatted_address);
      if (!address) throw unexpectedAnswer(LABEL);
      return address;
    },
  };
}

/** In AWS the secret GOOGLE_GEOCODING_API_KEY_SECRET names, locally GOOGLE_GEOCODING_API_KEY. */
const googleGeocodingKey = (): Promise<string> =>
  googleApiKey(
    config.googleGeocodingApiKeySecret(),
    config.googleGeocodingApiKey(),
    'GEOCODING_PROVIDER is google but GOOGLE_GEOCODING_API_KEY is not set',
  );
