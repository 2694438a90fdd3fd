import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { routeUid } from '../../shared/contracts/routes.ts';
import { busyMessage } from '../../shared/errors.ts';

const DeleteRouteInput = v.object({ route_uid: routeUid });

const DeleteRouteOutput = v.object({ route_uid: integerField });

export const contract = {
  name: 'deleteRoute',
  method: 'POST',
  area: 'routes',
  tableActions: ['GetItem', 'DeleteItem'],
  summary: 'Delete a route and its vehicle schedule; its locations stay',
  description: "Deletes a route and its vehicle's schedule; the locations it saved stay.",
  conflicts: [busyMessage('route')],
  input: DeleteRouteInput,
  output: DeleteRouteOutput,
  examples: {
    request: { route_uid: 1 },
    response: { route_uid: 1 },
  },
} as const satisfies OperationDeclaration;
