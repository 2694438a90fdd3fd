import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import { busyMessage } from '../../shared/errors.ts';

const DeleteExpenseTypeInput = v.object({
  type: described(requiredInteger('type'), "One of the user's own expense types (Fuel, type 2, cannot be deleted)."),
});

const DeleteExpenseTypeOutput = v.object({ type: integerField });

export const contract = {
  name: 'deleteExpenseType',
  method: 'POST',
  area: 'expense types',
  tableActions: ['GetItem', 'UpdateItem', 'DeleteItem'],
  summary: 'Soft-delete an expense type',
  description:
    "Soft-deletes one of the user's expense types: it is no longer listed nor accepted for new slips, while existing slips keep it " +
    'and its name.',
  conflicts: [busyMessage('expense type')],
  input: DeleteExpenseTypeInput,
  output: DeleteExpenseTypeOutput,
  examples: {
    request: { type: 5 },
    response: { type: 5 },
  },
} as const satisfies OperationDeclaration;
