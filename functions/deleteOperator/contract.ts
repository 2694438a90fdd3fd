import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { operatorUid } from '../../shared/contracts/operators.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { busyMessage } from '../../shared/errors.ts';

const DeleteOperatorInput = v.object({ operator_uid: operatorUid });

const DeleteOperatorOutput = v.object({ operator_uid: integerField });

export const contract = {
  name: 'deleteOperator',
  method: 'POST',
  area: 'operators',
  tableActions: ['GetItem', 'DeleteItem'],
  summary: 'Hard-delete an operator, freeing its tag_id',
  description: "Deletes an operator for good and frees its tag_id. Trips and fills keep the driver's name they were recorded with.",
  conflicts: [busyMessage('operator')],
  input: DeleteOperatorInput,
  output: DeleteOperatorOutput,
  examples: {
    request: { operator_uid: 3 },
    response: { operator_uid: 3 },
  },
} as const satisfies OperationDeclaration;
