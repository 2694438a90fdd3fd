import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter, VehicleRecord } from '../../shared/contracts/vehicles.ts';

const GetVehiclesInput = v.object({ filter: imeiFilter });

const GetVehiclesOutput = v.object({ filter: v.string(), cnt: integerField, vehicles: v.array(VehicleRecord) });

export const contract = { input: GetVehiclesInput, output: GetVehiclesOutput } satisfies OperationContract;
