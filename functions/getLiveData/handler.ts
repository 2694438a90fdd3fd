import * as v from 'valibot';
import { LiveRecord, toLiveRecord } from '../../shared/domain/vehicle.ts';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { listLinkedVehicles } from '../../shared/store/vehicles.ts';
import { imeiFilter } from '../../shared/validation.ts';

export const GetLiveDataInput = v.object({ filter: imeiFilter });

export const GetLiveDataOutput = v.object({ filter: v.string(), cnt: integer, vehicles: v.array(LiveRecord) });

export const handler = operation('getLiveData', GetLiveDataInput, async ({ user, input }) => {
  const vehicles = await listLinkedVehicles(user.userUid, input.filter?.imeis);
  return { filter: input.filter?.text ?? '', cnt: vehicles.length, vehicles: vehicles.map(toLiveRecord) };
}, { output: GetLiveDataOutput });
