import { toVehicleRecord } from '../../shared/contracts/vehicles.ts';
import { operation } from '../../shared/operation.ts';
import { linkedVehiclesAnswer } from '../../shared/paging/linked-vehicles.ts';
import { contract } from './contract.ts';

export const handler = operation('getVehicles', contract, (context) => linkedVehiclesAnswer(context, toVehicleRecord));
