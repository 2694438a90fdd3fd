import { deviceEndpoint } from '../../shared/devices/device-endpoint.ts';
import { decodeTraccar } from '../../shared/devices/traccar.ts';

/** The record's protocol keeps the one the Traccar server decoded: `traccar:teltonika`, `traccar:osmand`… */
export const handler = deviceEndpoint('traccarPositions', ({ json }) => {
  const { sourceProtocol, ...position } = decodeTraccar(json);
  return { protocol: sourceProtocol ? `traccar:${sourceProtocol}` : 'traccar', positions: [position] };
});
