/**
 * The registry: it collects the declarations, one per folder (functions/<name>/contract.ts), the operations in the
 * order the README table, the OpenAPI document and its examples follow (within an area: add before edit before
 * delete), then the device entry points. The CDK stack, the local API emulator, the scripts and the tests read it;
 * nothing under shared/ does. Adding an operation is one folder and one line here (docs/adding-an-operation.md).
 */
import type { DeviceEndpointDeclaration } from '../shared/contracts/device-endpoint.ts';
import type { OperationDeclaration } from '../shared/contracts/operation.ts';
import { contract as addApiKey } from './addApiKey/contract.ts';
import { contract as addDeviceToken } from './addDeviceToken/contract.ts';
import { contract as addExpenseSlip } from './addExpenseSlip/contract.ts';
import { contract as addExpenseType } from './addExpenseType/contract.ts';
import { contract as addFuelFillSlip } from './addFuelFillSlip/contract.ts';
import { contract as addJobCard } from './addJobCard/contract.ts';
import { contract as addOperator } from './addOperator/contract.ts';
import { contract as addRoute } from './addRoute/contract.ts';
import { contract as addUserLocation } from './addUserLocation/contract.ts';
import { contract as addWebhook } from './addWebhook/contract.ts';
import { contract as deleteApiKey } from './deleteApiKey/contract.ts';
import { contract as deleteDeviceToken } from './deleteDeviceToken/contract.ts';
import { contract as deleteExpenseSlip } from './deleteExpenseSlip/contract.ts';
import { contract as deleteExpenseType } from './deleteExpenseType/contract.ts';
import { contract as deleteOperator } from './deleteOperator/contract.ts';
import { contract as deleteRoute } from './deleteRoute/contract.ts';
import { contract as deleteUserLocation } from './deleteUserLocation/contract.ts';
import { contract as deleteWebhook } from './deleteWebhook/contract.ts';
import { contract as editExpenseSlip } from './editExpenseSlip/contract.ts';
import { contract as editExpenseType } from './editExpenseType/contract.ts';
import { contract as editJobCard } from './editJobCard/contract.ts';
import { contract as editOperator } from './editOperator/contract.ts';
import { contract as editUserLocation } from './editUserLocation/contract.ts';
import { contract as editWebhook } from './editWebhook/contract.ts';
import { contract as getAccount } from './getAccount/contract.ts';
import { contract as getApiKeys } from './getApiKeys/contract.ts';
import { contract as getDeviceTokens } from './getDeviceTokens/contract.ts';
import { contract as getEvents } from './getEvents/contract.ts';
import { contract as getExpenseSlip } from './getExpenseSlip/contract.ts';
import { contract as getExpenseSlips } from './getExpenseSlips/contract.ts';
import { contract as getExpenseTypes } from './getExpenseTypes/contract.ts';
import { contract as getFuelFillReport } from './getFuelFillReport/contract.ts';
import { contract as getJobCard } from './getJobCard/contract.ts';
import { contract as getJobCardHistory } from './getJobCardHistory/contract.ts';
import { contract as getJobCards } from './getJobCards/contract.ts';
import { contract as getLiveData } from './getLiveData/contract.ts';
import { contract as getLiveMap } from './getLiveMap/contract.ts';
import { contract as getOperator } from './getOperator/contract.ts';
import { contract as getOperators } from './getOperators/contract.ts';
import { contract as getPositions } from './getPositions/contract.ts';
import { contract as getRoute } from './getRoute/contract.ts';
import { contract as getRoutes } from './getRoutes/contract.ts';
import { contract as getTrips } from './getTrips/contract.ts';
import { contract as getUserLocation } from './getUserLocation/contract.ts';
import { contract as getUserLocations } from './getUserLocations/contract.ts';
import { contract as getVehicles } from './getVehicles/contract.ts';
import { contract as getWebhook } from './getWebhook/contract.ts';
import { contract as getWebhookDeliveries } from './getWebhookDeliveries/contract.ts';
import { contract as getWebhooks } from './getWebhooks/contract.ts';
import { contract as lockApiKey } from './lockApiKey/contract.ts';
import { contract as osmandPositions } from './osmandPositions/contract.ts';
import { contract as redeliverEvents } from './redeliverEvents/contract.ts';
import { contract as rotateWebhookSecret } from './rotateWebhookSecret/contract.ts';
import { contract as testWebhook } from './testWebhook/contract.ts';
import { contract as traccarPositions } from './traccarPositions/contract.ts';
import { contract as unlockApiKey } from './unlockApiKey/contract.ts';

export const operations = [
  getVehicles,
  getLiveData,
  getLiveMap,
  getTrips,
  getPositions,
  getExpenseTypes,
  addExpenseType,
  editExpenseType,
  deleteExpenseType,
  addExpenseSlip,
  getExpenseSlip,
  getExpenseSlips,
  editExpenseSlip,
  deleteExpenseSlip,
  getOperators,
  getOperator,
  addOperator,
  editOperator,
  deleteOperator,
  getUserLocations,
  getUserLocation,
  addUserLocation,
  editUserLocation,
  deleteUserLocation,
  getFuelFillReport,
  addFuelFillSlip,
  addJobCard,
  getJobCards,
  getJobCard,
  editJobCard,
  getJobCardHistory,
  addRoute,
  getRoutes,
  getRoute,
  deleteRoute,
  getEvents,
  addWebhook,
  getWebhooks,
  getWebhook,
  editWebhook,
  rotateWebhookSecret,
  testWebhook,
  getWebhookDeliveries,
  redeliverEvents,
  deleteWebhook,
  getAccount,
  getApiKeys,
  addApiKey,
  lockApiKey,
  unlockApiKey,
  deleteApiKey,
  getDeviceTokens,
  addDeviceToken,
  deleteDeviceToken,
] as const satisfies readonly OperationDeclaration[];

export type OperationName = (typeof operations)[number]['name'];
/** The operations an api key may call: all but a signed-in person's (managing keys and device tokens). */
export type KeyOperationName = Exclude<(typeof operations)[number], { personOnly: true }>['name'];
/** One declaration, whichever: the registry's own type is a tuple of literal types. */
export type Operation = OperationDeclaration;

/** Where an operation's handler lives, relative to the repository root. */
export const handlerPath = (name: string): string => `functions/${name}/handler.ts`;

export function findOperation(name: string): Operation | undefined {
  return (operations as readonly Operation[]).find((operation) => operation.name === name);
}

/** Functions fed by a stream rather than the API (same functions/<name>/handler.ts layout, own event shape). */
export interface StreamConsumer {
  readonly name: string;
  readonly summary: string;
}

export const streamConsumers = [
  { name: 'processPositions', summary: 'Positions from the Kinesis stream → live data, odometer, trips and fuel fills' },
  { name: 'routeWebhookEvents', summary: "New events from the table's stream → one queued delivery per endpoint that takes them" },
  { name: 'sendWebhooks', summary: 'Queued deliveries → one signed POST each, retried on the schedule' },
] as const satisfies readonly StreamConsumer[];

/** Functions a schedule runs (EventBridge in AWS, a timer under `npm start`); same folder layout, own event shape. */
export interface ScheduledFunction {
  readonly name: string;
  readonly summary: string;
  readonly everyMinutes: number;
}

export const scheduledFunctions = [
  {
    name: 'checkQuietVehicles',
    summary: 'Every minute: vehicles silent past the gap rule get their open trip closed, past offlineAfterS device.offline',
    everyMinutes: 1,
  },
] as const satisfies readonly ScheduledFunction[];

/** HTTP entry points devices call directly, outside /api/ (docs/devices.md); same folder layout as operations. */
export const deviceEndpoints = [osmandPositions, traccarPositions] as const satisfies readonly DeviceEndpointDeclaration[];

/** The device entry point serving an API Gateway resource path, with the token when the path carries one. */
export function findDeviceEndpoint(path: string): { endpoint: DeviceEndpointDeclaration; resource: string; token?: string } | undefined {
  for (const endpoint of deviceEndpoints) {
    for (const resource of endpoint.resources) {
      const pattern = new RegExp(`^${resource.replace('{token}', '(?<token>[^/]+)')}/?$`);
      const match = pattern.exec(path);
      if (match) return { endpoint, resource, ...(match.groups?.token ? { token: decodeURIComponent(match.groups.token) } : {}) };
    }
  }
  return undefined;
}
