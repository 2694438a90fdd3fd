import * as v from 'valibot';
import { slipUid } from '../../shared/contracts/expense-slips.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { busyMessage } from '../../shared/errors.ts';

const DeleteExpenseSlipInput = v.object({ slip_uid: slipUid });

const DeleteExpenseSlipOutput = v.object({ slip_uid: integerField });

export const contract = {
  name: 'deleteExpenseSlip',
  method: 'POST',
  area: 'slips',
  tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem', 'DeleteItem'],
  summary: "Hard-delete a slip, freeing a fill's slip",
  description: 'Deletes a slip for good. Deleting a fill slip frees its fuel fill for a new one (addFuelFillSlip).',
  conflicts: [busyMessage('slip')],
  input: DeleteExpenseSlipInput,
  output: DeleteExpenseSlipOutput,
  examples: {
    request: { slip_uid: 4 },
    response: { slip_uid: 4 },
  },
} as const satisfies OperationDeclaration;
