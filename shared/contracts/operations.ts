/**
 * Every operation's contract, by name, for the OpenAPI document: the compiler holds it to the registry (an
 * operation missing here, or one the registry does not have, does not typecheck). Handlers import their own
 * contract only, so no function bundle carries another operation's schemas.
 */
import { contract as addExpenseSlip } from '../../functions/addExpenseSlip/contract.ts';
import { contract as addExpenseType } from '../../functions/addExpenseType/contract.ts';
import { contract as addFuelFillSlip } from '../../functions/addFuelFillSlip/contract.ts';
import { contract as addJobCard } from '../../functions/addJobCard/contract.ts';
import { contract as addOperator } from '../../functions/addOperator/contract.ts';
import { contract as addRoute } from '../../functions/addRoute/contract.ts';
import { contract as addUserLocation } from '../../functions/addUserLocation/contract.ts';
import { contract as deleteExpenseSlip } from '../../functions/deleteExpenseSlip/contract.ts';
import { contract as deleteExpenseType } from '../../functions/deleteExpenseType/contract.ts';
import { contract as deleteOperator } from '../../functions/deleteOperator/contract.ts';
import { contract as deleteRoute } from '../../functions/deleteRoute/contract.ts';
import { contract as deleteUserLocation } from '../../functions/deleteUserLocation/contract.ts';
import { contract as editExpenseSlip } from '../../functions/editExpenseSlip/contract.ts';
import { contract as editExpenseType } from '../../functions/editExpenseType/contract.ts';
import { contract as editJobCard } from '../../functions/editJobCard/contract.ts';
import { contract as editOperator } from '../../functions/editOperator/contract.ts';
import { contract as editUserLocation } from '../../functions/editUserLocation/contract.ts';
import { contract as getExpenseSlip } from '../../functions/getExpenseSlip/contract.ts';
import { contract as getExpenseSlips } from '../../functions/getExpenseSlips/contract.ts';
import { contract as getExpenseTypes } from '../../functions/getExpenseTypes/contract.ts';
import { contract as getFuelFillReport } from '../../functions/getFuelFillReport/contract.ts';
import { contract as getJobCard } from '../../functions/getJobCard/contract.ts';
import { contract as getJobCardHistory } from '../../functions/getJobCardHistory/contract.ts';
import { contract as getJobCards } from '../../functions/getJobCards/contract.ts';
import { contract as getLiveData } from '../../functions/getLiveData/contract.ts';
import { contract as getLiveMap } from '../../functions/getLiveMap/contract.ts';
import { contract as getOperator } from '../../functions/getOperator/contract.ts';
import { contract as getOperators } from '../../functions/getOperators/contract.ts';
import { contract as getPositions } from '../../functions/getPositions/contract.ts';
import { contract as getRoute } from '../../functions/getRoute/contract.ts';
import { contract as getRoutes } from '../../functions/getRoutes/contract.ts';
import { contract as getTrips } from '../../functions/getTrips/contract.ts';
import { contract as getUserLocation } from '../../functions/getUserLocation/contract.ts';
import { contract as getUserLocations } from '../../functions/getUserLocations/contract.ts';
import { contract as getVehicles } from '../../functions/getVehicles/contract.ts';
import type { OperationName } from '../operations.ts';
import type { OperationContract } from './operation.ts';

export const operationContracts = {
  addExpenseSlip,
  addExpenseType,
  addFuelFillSlip,
  addJobCard,
  addOperator,
  addRoute,
  addUserLocation,
  deleteExpenseSlip,
  deleteExpenseType,
  deleteOperator,
  deleteRoute,
  deleteUserLocation,
  editExpenseSlip,
  editExpenseType,
  editJobCard,
  editOperator,
  editUserLocation,
  getExpenseSlip,
  getExpenseSlips,
  getExpenseTypes,
  getFuelFillReport,
  getJobCard,
  getJobCardHistory,
  getJobCards,
  getLiveData,
  getLiveMap,
  getOperator,
  getOperators,
  getPositions,
  getRoute,
  getRoutes,
  getTrips,
  getUserLocation,
  getUserLocations,
  getVehicles,
} satisfies Record<OperationName, OperationContract>;
