import { deviceEndpoint } from '../../shared/devices/device-endpoint.ts';
import { decodeOsmAnd } from '../../shared/devices/osmand.ts';

export const handler = deviceEndpoint('osmandPositions', (request) => ({ protocol: 'osmand', positions: decodeOsmAnd(request) }));
