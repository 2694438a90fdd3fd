/**
 * Nominatim: GET <base>/reverse?format=jsonv2&lat=..&lon=..&zoom=18. The answer's display_name; its
 * `{"error": "Unable to geocode"}` is "no address here". Its usage policy asks for a User-Agent that names the
 * application and, on the public server, at most one request a second, which minIntervalMs keeps.
 */
import { config } from '../../config.ts';
import type { LatLng } from '../../domain/geo.ts';
import { providerJson, unexpectedAnswer } from '../provider-request.ts';
import { addressText, type GeocodingProvider, geocodingLabel } from './provider.ts';

const NAME = 'nominatim';
const LABEL = geocodingLabel(NAME);
const PUBLIC_URL = 'https://nominatim.openstreetmap.org';
export const NOMINATIM_USER_AGENT = 'fleet-tracking-api/1.0 (trip, fuel-fill and route place names; cached per place)';

export function nominatimProvider(): GeocodingProvider {
  const base = (config.nominatimUrl() ?? PUBLIC_URL).replace(/\/+$/, '');
  return {
    name: NAME,
    minIntervalMs: base === PUBLIC_URL ? 1_000 : 0,
    async address({ lat, lng }: LatLng, timeoutMs: number) {
      const url = new URL(`${base}/reverse`);
      url.search = new URLSearchParams({ format: 'jsonv2', lat: String(lat), lon: String(lng), zoom: '18' }).toString();
      const answer = await providerJson(LABEL, url, timeoutMs, { 'User-Agent': NOMINATIM_USER_AGENT });
      if (typeof answer.error === 'string') return undefined;
      const address = addressText(answer.display_name);
      if (!address) throw unexpectedAnswer(LABEL);
      return address;
    },
  };
}
