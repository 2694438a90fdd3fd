/**
 * The operation registry: the one list of the service's operations.
 * The CDK stack, the local API emulator, the events/ check and the docs all read it;
 * adding an operation is one line here plus one folder under functions/.
 */
export type HttpMethod = 'GET' | 'POST';
export type Access = 'read' | 'write';

export interface Operation {
  readonly name: string;
  readonly method: HttpMethod;
  /** read operations get read-only grants in AWS */
  readonly access: Access;
  readonly summary: string;
}

export const operations = [
  { name: 'getVehicles', method: 'GET', access: 'read', summary: 'Vehicles linked to the key, optionally filtered by IMEI' },
  { name: 'getLiveData', method: 'GET', access: 'read', summary: 'Last known position and telemetry per vehicle' },
  { name: 'getTrips', method: 'GET', access: 'read', summary: 'Trips per vehicle between two dates' },
  { name: 'getExpenseTypes', method: 'GET', access: 'read', summary: 'Fuel (type 2) and the user\'s own expense types' },
  { name: 'addExpenseType', method: 'POST', access: 'write', summary: 'Create an expense type' },
  { name: 'editExpenseType', method: 'POST', access: 'write', summary: 'Rename an expense type' },
  { name: 'deleteExpenseType', method: 'POST', access: 'write', summary: 'Soft-delete an expense type' },
] as const satisfies readonly Operation[];

export type OperationName = (typeof operations)[number]['name'];

/** Where an operation's handler lives, relative to the repository root. */
export const handlerPath = (name: string): string => `functions/${name}/handler.ts`;

export function findOperation(name: string): Operation | undefined {
  return operations.find((operation) => operation.name === name);
}
