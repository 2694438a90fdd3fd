import * as v from 'valibot';
import { SLIP_PARAMETERS, slipComment, slipNumber } from '../../shared/contracts/expense-slips.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import {
  dateTimeParameter,
  decimalTextParameter,
  described,
  integerField,
  positiveDecimal,
  requiredInteger,
} from '../../shared/contracts/primitives.ts';
import { vehicleUid } from '../../shared/contracts/vehicles.ts';
import { SLIP_TYPE_INVALID } from '../../shared/domain/expense-slip.ts';

/** Shapes in spec order; whether the vehicle is linked and the type is the user's is the store's lookup, after these. */
const AddExpenseSlipInput = v.object({
  vehicle_uid: vehicleUid,
  type: described(requiredInteger('type', SLIP_TYPE_INVALID), "An expense type: 2 (Fuel) or one of the user's own types."),
  amount: described(positiveDecimal('amount', 2, 'amount is required and must be greater than 0'), SLIP_PARAMETERS.amount),
  event_datetime: described(
    dateTimeParameter('event_datetime is required (yyyy-mm-dd hh:mm:ss or yyyy-mm-dd)'),
    SLIP_PARAMETERS.event_datetime,
  ),
  qty: described(v.optional(decimalTextParameter('qty', 3, 'qty must be a number of 0 or more'), '0'), SLIP_PARAMETERS.qty),
  slip_number: slipNumber,
  comment: slipComment,
});

const AddExpenseSlipOutput = v.object({ slip_uid: integerField });

export const contract = {
  name: 'addExpenseSlip',
  method: 'POST',
  area: 'slips',
  tableActions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'],
  summary: 'Record an expense or fuel slip on a linked vehicle',
  idempotencyKey: true,
  description:
    "Records a slip on a vehicle linked to the key: a fuel slip (type 2) or one of the user's expense types. amount and qty are " +
    "decimal text (a JSON number is read as its text) and are stored exactly as given; event_datetime is the user's local time, a " +
    'bare date meaning its midnight.',
  input: AddExpenseSlipInput,
  output: AddExpenseSlipOutput,
  examples: {
    request: {
      vehicle_uid: 1,
      type: 3,
      amount: '61.00',
      event_datetime: '2026-11-22 16:40:00',
      qty: '1',
      slip_number: 'N1-0954',
      comment: 'Midrand plaza, return',
    },
    response: { slip_uid: 4 },
  },
} as const satisfies OperationDeclaration;
