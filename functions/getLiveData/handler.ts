import * as v from 'valibot';
import { toLiveRecord } from '../../shared/domain/vehicle.ts';
import { operation } from '../../shared/operation.ts';
import { listLinkedVehicles } from '../../shared/store/vehicles.ts';
import { imeiFilter } from '../../shared/validation.ts';

export const GetLiveDataInput = v.object({ filter: imeiFilter });

export const handler = operation('getLiveData', GetLiveDataInput, async ({ user, input }) => {
  const vehicles = await listLinkedVehicles(user.userUid, input.filter?.imeis);
  return { filter: input.filter?.text ?? '', cnt: vehicles.length, vehicles: vehicles.map(toLiveRecord) };
});
