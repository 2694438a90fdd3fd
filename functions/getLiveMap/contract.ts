import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { optionalInteger, requiredText } from '../../shared/contracts/primitives.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';
import { MAP_DEFAULTS, MAP_LIMITS } from '../../shared/domain/live-map/live-map.ts';

const integerFrom = (name: string, { min, max }: { min: number; max: number }, fallback: number) => {
  const message = `${name} must be an integer from ${min} to ${max}`;
  return v.optional(v.pipe(v.unwrap(optionalInteger(name, message)), v.minValue(min, message), v.maxValue(max, message)), fallback);
};

const GetLiveMapInput = v.object({
  map_api_key: requiredText('map_api_key', 512),
  filter: imeiFilter,
  width: integerFrom('width', MAP_LIMITS.size, MAP_DEFAULTS.width),
  height: integerFrom('height', MAP_LIMITS.size, MAP_DEFAULTS.height),
  zoom: integerFrom('zoom', MAP_LIMITS.zoom, MAP_DEFAULTS.zoom),
});

const GetLiveMapOutput = { mediaType: 'image/png' } as const;

export const contract = { input: GetLiveMapInput, output: GetLiveMapOutput } satisfies OperationContract;
