import * as v from 'valibot';
import { toVehicleRecord } from '../../shared/domain/vehicle.ts';
import { operation } from '../../shared/operation.ts';
import { listLinkedVehicles } from '../../shared/store/vehicles.ts';
import { imeiFilter } from '../../shared/validation.ts';

export const GetVehiclesInput = v.object({ filter: imeiFilter });

export const handler = operation('getVehicles', GetVehiclesInput, async ({ user, input }) => {
  const vehicles = await listLinkedVehicles(user.userUid, input.filter?.imeis);
  return { filter: input.filter?.text ?? '', cnt: vehicles.length, vehicles: vehicles.map(toVehicleRecord) };
});
