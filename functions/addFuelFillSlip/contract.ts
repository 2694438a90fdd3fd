import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { decimalTextParameter, integerField, optionalText, positiveDecimal, requiredInteger } from '../../shared/contracts/primitives.ts';
import { fillSlipExists } from '../../shared/domain/fuel-fill.ts';

const AddFuelFillSlipInput = v.object({
  event_uid: requiredInteger('event_uid'),
  qty: positiveDecimal('qty', 3, 'qty is required and must be greater than 0'),
  amount: v.optional(decimalTextParameter('amount', 2, 'amount must be a number of 0 or more'), '0'),
  slip_number: optionalText('slip_number', 100),
});

const AddFuelFillSlipOutput = v.object({ slip_uid: integerField, event_uid: integerField });

export const contract = {
  name: 'addFuelFillSlip',
  method: 'POST',
  area: 'fuel',
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
