import * as v from 'valibot';
import { LiveRecord, toLiveRecord } from '../../shared/contracts/vehicles.ts';
import { operation } from '../../shared/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';
import { listLinkedVehicles } from '../../shared/store/vehicles.ts';

export const GetLiveDataInput = v.object({ filter: imeiFilter });

export const GetLiveDataOutput = v.object({ filter: v.string(), cnt: integerField, vehicles: v.array(LiveRecord) });

export const handler = operation('getLiveData', GetLiveDataInput, async ({ user, input }) => {
  const vehicles = await listLinkedVehicles(user.userUid, input.filter?.imeis);
  return { filter: input.filter?.text ?? '', cnt: vehicles.length, vehicles: vehicles.map(toLiveRecord) };
}, { output: GetLiveDataOutput });
