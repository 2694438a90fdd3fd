import { toLiveRecord } from '../../shared/contracts/vehicles.ts';
import { operation } from '../../shared/operation.ts';
import { listLinkedVehicles } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const vehicles = await listLinkedVehicles(user.userUid, input.filter?.imeis);
  return { filter: input.filter?.text ?? '', cnt: vehicles.length, vehicles: vehicles.map(toLiveRecord) };
});
