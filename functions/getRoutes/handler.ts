import { toRouteSummary } from '../../shared/contracts/routes.ts';
import { operation } from '../../shared/operation.ts';
import { listRoutes } from '../../shared/store/routes.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user }) => {
  const routes = await listRoutes(user.userUid);
  return { cnt: routes.length, routes: routes.map((route) => toRouteSummary(route, user.gmtOffsetMinutes)) };
});
