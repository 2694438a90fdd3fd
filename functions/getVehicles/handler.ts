import * as v from 'valibot';
import { toVehicleRecord, VehicleRecord } from '../../shared/contracts/vehicles.ts';
import { operation } from '../../shared/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';
import { listLinkedVehicles } from '../../shared/store/vehicles.ts';

export const GetVehiclesInput = v.object({ filter: imeiFilter });

export const GetVehiclesOutput = v.object({ filter: v.string(), cnt: integerField, vehicles: v.array(VehicleRecord) });

export const handler = operation('getVehicles', GetVehiclesInput, async ({ user, input }) => {
  const vehicles = await listLinkedVehicles(user.userUid, input.filter?.imeis);
  return { filter: input.filter?.text ?? '', cnt: vehicles.length, vehicles: vehicles.map(toVehicleRecord) };
}, { output: GetVehiclesOutput });
