import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, optionalInteger, requiredText } from '../../shared/contracts/primitives.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';
import { MAP_DEFAULTS, MAP_LIMITS, NO_POSITION } from '../../shared/domain/live-map/live-map.ts';

const integerFrom = (name: string, { min, max }: { min: number; max: number }, fallback: number) => {
  const message = `${name} must be an integer from ${min} to ${max}`;
  return v.optional(v.pipe(v.unwrap(optionalInteger(name, message)), v.minValue(min, message), v.maxValue(max, message)), fallback);
};

const GetLiveMapInput = v.object({
  map_api_key: described(
    requiredText('map_api_key', 512),
    "The map provider's key (Google Static Maps, or a tile server without a configured key), passed on with the request and " +
      'never stored or logged; Amazon Location and the built-in offline map take any value.',
  ),
  filter: imeiFilter,
  width: described(integerFrom('width', MAP_LIMITS.size, MAP_DEFAULTS.width), 'Width of the picture in pixels.'),
  height: described(integerFrom('height', MAP_LIMITS.size, MAP_DEFAULTS.height), 'Height of the picture in pixels.'),
  zoom: described(integerFrom('zoom', MAP_LIMITS.zoom, MAP_DEFAULTS.zoom), 'Map zoom level (1: the world, 20: a building).'),
});

const GetLiveMapOutput = { mediaType: 'image/png' } as const;

export const contract = {
  name: 'getLiveMap',
  method: 'GET',
  area: 'vehicles',
  tableActions: ['Query', 'BatchGetItem'],
  summary: 'A PNG map of the vehicles at their last positions',
  bucket: 'read-write',
  provider: 'live-map',
  description:
    "A PNG map of the linked vehicles (or the IMEIs in `filter`) at their last positions, with the user's saved locations. The " +
    "picture comes from the deployment's provider: Amazon Location static maps (the AWS default; IAM, `map_api_key` unused), " +
    'Google Static Maps (with `map_api_key`), an XYZ tile server (its key from the deployment or `map_api_key`), or the built-in ' +
    "offline map (Natural Earth land and borders, GeoNames towns, the user's zones, vehicles grouped when a few pixels apart, " +
    'scale bar and legend; no network). The map is centred on the vehicles; when they do not all fit at the zoom, on the most that ' +
    'do, and the legend says how many are outside. Pictures are cached in S3 by a hash of what they show, never of the key. 404 ' +
    'when no vehicle has a position yet; 502 naming the provider when it fails (nothing is cached then).',
  notFound: NO_POSITION,
  input: GetLiveMapInput,
  output: GetLiveMapOutput,
  examples: {
    request: { map_api_key: 'local', filter: '356307042441013,356307042441021', width: 640, height: 480, zoom: 11 },
  },
} as const satisfies OperationDeclaration;
