/**
 * The operation registry: the one list of the service's operations.
 * The CDK stack, the local API emulator, the events/ check and the docs all read it;
 * adding an operation is one line here plus one folder under functions/.
 */
export type HttpMethod = 'GET' | 'POST';
export type Access = 'read' | 'write';
/** The area an operation belongs to: its tag in the OpenAPI document (a folder in Postman, a class in generated clients). */
export type Area = 'vehicles' | 'expense types' | 'slips' | 'operators' | 'locations' | 'fuel' | 'job cards' | 'routes' | 'positions';

export interface Operation {
  readonly name: string;
  readonly method: HttpMethod;
  /** read operations get read-only grants in AWS */
  readonly access: Access;
  readonly area: Area;
  readonly summary: string;
  /** S3 access, for operations that keep objects (rendered maps, cached directions) */
  readonly bucket?: 'read-write';
  /** the third-party provider whose configuration (and secret) the function needs in AWS */
  readonly provider?: 'live-map' | 'directions';
}

export const operations = [
  // vehicles, live data and trips
  {
    name: 'getVehicles',
    method: 'GET',
    access: 'read',
    area: 'vehicles',
    summary: 'Vehicles linked to the key, optionally filtered by IMEI',
  },
  { name: 'getLiveData', method: 'GET', access: 'read', area: 'vehicles', summary: 'Last known position and telemetry per vehicle' },
  {
    name: 'getLiveMap',
    method: 'GET',
    access: 'read',
    area: 'vehicles',
    bucket: 'read-write',
    provider: 'live-map',
    summary: 'A PNG map of the vehicles at their last positions',
  },
  { name: 'getTrips', method: 'GET', access: 'read', area: 'vehicles', summary: 'Trips per vehicle between two dates' },
  {
    name: 'getPositions',
    method: 'GET',
    access: 'read',
    area: 'positions',
    summary: "A vehicle's stored positions between two times, oldest first (trip playback)",
  },
  // expense types
  {
    name: 'getExpenseTypes',
    method: 'GET',
    access: 'read',
    area: 'expense types',
    summary: "Fuel (type 2) and the user's own expense types",
  },
  { name: 'addExpenseType', method: 'POST', access: 'write', area: 'expense types', summary: 'Create an expense type' },
  { name: 'editExpenseType', method: 'POST', access: 'write', area: 'expense types', summary: 'Rename an expense type' },
  { name: 'deleteExpenseType', method: 'POST', access: 'write', area: 'expense types', summary: 'Soft-delete an expense type' },
  // expense slips
  { name: 'addExpenseSlip', method: 'POST', access: 'write', area: 'slips', summary: 'Record an expense or fuel slip on a linked vehicle' },
  { name: 'getExpenseSlip', method: 'GET', access: 'read', area: 'slips', summary: 'One slip by slip_uid, fill slips included' },
  {
    name: 'getExpenseSlips',
    method: 'GET',
    access: 'read',
    area: 'slips',
    summary: "A vehicle's expense and fuel slips between two dates",
  },
  { name: 'editExpenseSlip', method: 'POST', access: 'write', area: 'slips', summary: 'Change a slip; omitted fields keep their value' },
  { name: 'deleteExpenseSlip', method: 'POST', access: 'write', area: 'slips', summary: "Hard-delete a slip, freeing a fill's slip" },
  // operators (drivers)
  { name: 'getOperators', method: 'GET', access: 'read', area: 'operators', summary: "The user's operators (drivers)" },
  { name: 'getOperator', method: 'GET', access: 'read', area: 'operators', summary: 'One operator by operator_uid' },
  {
    name: 'addOperator',
    method: 'POST',
    access: 'write',
    area: 'operators',
    summary: 'Create an operator; tag_id is unique across all users',
  },
  {
    name: 'editOperator',
    method: 'POST',
    access: 'write',
    area: 'operators',
    summary: 'Change an operator; omitted fields keep their value',
  },
  { name: 'deleteOperator', method: 'POST', access: 'write', area: 'operators', summary: 'Hard-delete an operator, freeing its tag_id' },
  // user locations
  {
    name: 'getUserLocations',
    method: 'GET',
    access: 'read',
    area: 'locations',
    summary: "The user's saved locations (points and polygons)",
  },
  { name: 'getUserLocation', method: 'GET', access: 'read', area: 'locations', summary: 'One saved location' },
  { name: 'addUserLocation', method: 'POST', access: 'write', area: 'locations', summary: 'Save a point or polygon location' },
  {
    name: 'editUserLocation',
    method: 'POST',
    access: 'write',
    area: 'locations',
    summary: 'Change a saved location; omitted fields keep their value',
  },
  { name: 'deleteUserLocation', method: 'POST', access: 'write', area: 'locations', summary: 'Delete a saved location' },
  // fuel fills
  {
    name: 'getFuelFillReport',
    method: 'GET',
    access: 'read',
    area: 'fuel',
    summary: 'Detected fuel fills of a vehicle with their slips and consumption',
  },
  {
    name: 'addFuelFillSlip',
    method: 'POST',
    access: 'write',
    area: 'fuel',
    summary: 'Capture the slip of a detected fuel fill (one per fill)',
  },
  // job cards
  { name: 'addJobCard', method: 'POST', access: 'write', area: 'job cards', summary: 'Store a job card payload from an external system' },
  {
    name: 'getJobCards',
    method: 'GET',
    access: 'read',
    area: 'job cards',
    summary: 'The 1000 most recent job cards, by creation date and external reference',
  },
  { name: 'getJobCard', method: 'GET', access: 'read', area: 'job cards', summary: 'One job card with its stored payload' },
  { name: 'editJobCard', method: 'POST', access: 'write', area: 'job cards', summary: "Replace a job card's payload" },
  { name: 'getJobCardHistory', method: 'GET', access: 'read', area: 'job cards', summary: "A job card's snapshots, oldest first" },
  // routes
  {
    name: 'addRoute',
    method: 'POST',
    access: 'write',
    area: 'routes',
    bucket: 'read-write',
    provider: 'directions',
    summary: 'Create a route through ordered stops, with driving distance and time per leg; optionally schedule a vehicle onto it',
  },
  { name: 'getRoutes', method: 'GET', access: 'read', area: 'routes', summary: "The user's routes with stop count and totals" },
  {
    name: 'getRoute',
    method: 'GET',
    access: 'read',
    area: 'routes',
    summary: 'One route with its stops and legs, as addRoute returned it',
  },
  {
    name: 'deleteRoute',
    method: 'POST',
    access: 'write',
    area: 'routes',
    summary: 'Delete a route and its vehicle schedule; its locations stay',
  },
] as const satisfies readonly Operation[];

export type OperationName = (typeof operations)[number]['name'];

/** Where an operation's handler lives, relative to the repository root. */
export const handlerPath = (name: string): string => `functions/${name}/handler.ts`;

export function findOperation(name: string): Operation | undefined {
  return operations.find((operation) => operation.name === name);
}

/** Functions fed by a stream rather than the API (same functions/<name>/handler.ts layout, own event shape). */
export interface StreamConsumer {
  readonly name: string;
  readonly summary: string;
}

export const streamConsumers = [
  { name: 'processPositions', summary: 'Positions from the Kinesis stream → live data, odometer, trips and fuel fills' },
] as const satisfies readonly StreamConsumer[];

/**
 * Device entry points (docs/devices.md): HTTP functions devices call directly, on resources of their own outside
 * /api/, authenticated by a device token instead of an api key; they only put records on the positions stream.
 */
export interface DeviceEndpoint {
  readonly name: string;
  readonly summary: string;
  readonly methods: readonly HttpMethod[];
  /** API Gateway resource paths; `{token}` is the device token */
  readonly resources: readonly string[];
  /** the grant it needs in AWS: PutRecords on the positions stream */
  readonly stream: 'put-records';
}

export const deviceEndpoints = [
  {
    name: 'osmandPositions',
    summary: 'Positions from the Traccar Client, OsmAnd and GPSLogger apps (OsmAnd protocol)',
    methods: ['GET', 'POST'],
    resources: ['/devices/osmand/{token}'],
    stream: 'put-records',
  },
  {
    name: 'traccarPositions',
    summary: 'Positions a Traccar server forwards (forward.type=json), with the token in the path or a Bearer header',
    methods: ['POST'],
    resources: ['/devices/traccar', '/devices/traccar/{token}'],
    stream: 'put-records',
  },
] as const satisfies readonly DeviceEndpoint[];

/** The device entry point serving an API Gateway resource path, with the token when the path carries one. */
export function findDeviceEndpoint(path: string): { endpoint: DeviceEndpoint; resource: string; token?: string } | undefined {
  for (const endpoint of deviceEndpoints) {
    for (const resource of endpoint.resources) {
      const pattern = new RegExp(`^${resource.replace('{token}', '(?<token>[^/]+)')}/?$`);
      const match = pattern.exec(path);
      if (match) return { endpoint, resource, ...(match.groups?.token ? { token: decodeURIComponent(match.groups.token) } : {}) };
    }
  }
  return undefined;
}

/** Creates (add*) honour an Idempotency-Key header: a retry after a timeout must not create a second record. */
export const isCreate = (name: string): boolean => name.startsWith('add');
