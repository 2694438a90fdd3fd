import type { DeviceEndpointDeclaration } from '../../shared/contracts/device-endpoint.ts';

export const contract = {
  name: 'osmandPositions',
  summary: 'Positions from the Traccar Client, OsmAnd and GPSLogger apps (OsmAnd protocol)',
  methods: ['GET', 'POST'],
  resources: ['/devices/osmand/{token}'],
  stream: 'put-records',
} as const satisfies DeviceEndpointDeclaration;
