import { type DeviceEndpointDependencies, deviceEndpoint } from '../../shared/devices/device-endpoint.ts';
import { decodeOsmAnd } from '../../shared/devices/osmand.ts';
import { contract } from './contract.ts';

/** The OsmAnd endpoint with its dependencies (the cost bench measures it with a sink that takes records at once). */
export const osmandEndpoint = (dependencies: Partial<DeviceEndpointDependencies> = {}) =>
  deviceEndpoint(contract, (request) => ({ protocol: 'osmand', positions: decodeOsmAnd(request) }), dependencies);

export const handler = osmandEndpoint();
