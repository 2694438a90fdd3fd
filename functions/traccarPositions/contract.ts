import type { DeviceEndpointDeclaration } from '../../shared/contracts/device-endpoint.ts';

export const contract = {
  name: 'traccarPositions',
  summary: 'Positions a Traccar server forwards (forward.type=json), with the token in the path or a Bearer header',
  methods: ['POST'],
  resources: ['/devices/traccar', '/devices/traccar/{token}'],
  stream: 'put-records',
} as const satisfies DeviceEndpointDeclaration;
