import { operation } from '../../shared/operation.ts';
import { deleteRoute } from '../../shared/store/routes.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await deleteRoute(user.userUid, input.route_uid);
  return { route_uid: input.route_uid };
});
