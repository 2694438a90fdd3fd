import { toRouteRecord } from '../../shared/contracts/routes.ts';
import { operation } from '../../shared/operation.ts';
import { getRoute } from '../../shared/store/routes.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const route = await getRoute(user.userUid, input.route_uid);
  return { route: toRouteRecord(route) };
});
