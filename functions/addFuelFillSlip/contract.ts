import * as v from 'valibot';
import { slipNumber } from '../../shared/contracts/expense-slips.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { decimalTextParameter, described, integerField, positiveDecimal, requiredInteger } from '../../shared/contracts/primitives.ts';
import { fillSlipExists } from '../../shared/domain/fuel-fill.ts';

const AddFuelFillSlipInput = v.object({
  event_uid: described(
    requiredInteger('event_uid'),
    "A detected fuel fill of a vehicle linked to the key's user (event_uid of getFuelFillReport).",
  ),
  qty: described(
    positiveDecimal('qty', 3, 'qty is required and must be greater than 0'),
    'The litres on the slip, a decimal of at most 3 places, greater than 0.',
  ),
  amount: described(
    v.optional(decimalTextParameter('amount', 2, 'amount must be a number of 0 or more'), '0'),
    'The amount paid, a decimal of at most 2 places; 0 when left out.',
  ),
  slip_number: slipNumber,
});

const AddFuelFillSlipOutput = v.object({ slip_uid: integerField, event_uid: integerField });

export const contract = {
  name: 'addFuelFillSlip',
  method: 'POST',
  area: 'fuel',
  tableActions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'],
  summary: 'Capture the slip of a detected fuel fill (one per fill)',
  idempotencyKey: true,
  description:
    "Captures the slip of a detected fuel fill: a fill slip (type 1) dated at the fill, on the fill's vehicle. One per fill: a " +
    'second answers 409 naming the existing slip, which editExpenseSlip or deleteExpenseSlip change.',
  conflicts: [fillSlipExists(42)],
  input: AddFuelFillSlipInput,
  output: AddFuelFillSlipOutput,
  examples: {
    request: { event_uid: 3, qty: '38.7', amount: '884.30', slip_number: 'DEPOT-0002' },
    response: { slip_uid: 5, event_uid: 3 },
  },
} as const satisfies OperationDeclaration;
