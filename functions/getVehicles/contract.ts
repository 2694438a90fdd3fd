import * as v from 'valibot';
import { VehicleRecord } from '../../shared/contracts/vehicles.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';

const GetVehiclesInput = v.object({ filter: imeiFilter });

const GetVehiclesOutput = v.object({ filter: v.string(), cnt: integerField, vehicles: v.array(VehicleRecord) });

export const contract = { input: GetVehiclesInput, output: GetVehiclesOutput } satisfies OperationContract;
