import { deviceEndpoint } from '../../shared/devices/device-endpoint.ts';
import { decodeOsmAnd } from '../../shared/devices/osmand.ts';
import { deviceEndpoints } from '../../shared/operations.ts';

export const handler = deviceEndpoint(deviceEndpoints[0], (request) => ({ protocol: 'osmand', positions: decodeOsmAnd(request) }));
