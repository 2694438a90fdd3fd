import { deviceEndpoint } from '../../shared/devices/device-endpoint.ts';
import { decodeOsmAnd } from '../../shared/devices/osmand.ts';
import { contract } from './contract.ts';

export const handler = deviceEndpoint(contract, (request) => ({ protocol: 'osmand', positions: decodeOsmAnd(request) }));
