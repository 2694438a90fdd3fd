import * as v from 'valibot';
import { SLIP_PARAMETERS, slipComment, slipNumber, slipUid } from '../../shared/contracts/expense-slips.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import {
  dateTimeParameter,
  decimalTextParameter,
  described,
  integerField,
  optionalInteger,
  positiveDecimal,
} from '../../shared/contracts/primitives.ts';
import { busyMessage } from '../../shared/errors.ts';

const EditExpenseSlipInput = v.object({
  slip_uid: slipUid,
  amount: described(v.optional(positiveDecimal('amount', 2, 'amount must be greater than 0')), SLIP_PARAMETERS.amount),
  qty: described(v.optional(decimalTextParameter('qty', 3, 'qty must be a number of 0 or more')), SLIP_PARAMETERS.qty),
  slip_number: slipNumber,
  event_datetime: described(
    v.optional(dateTimeParameter('event_datetime must be yyyy-mm-dd hh:mm:ss or yyyy-mm-dd')),
    SLIP_PARAMETERS.event_datetime,
  ),
  comment: slipComment,
  /** the spec fixes a slip's type; a client echoing the slip's own type back is not refused */
  type: described(
    optionalInteger('type'),
    "The slip's own type, accepted so that a slip read back can be sent whole; a slip's type cannot change, so any other type is refused.",
  ),
});

const EditExpenseSlipOutput = v.object({ slip_uid: integerField });

export const contract = {
  name: 'editExpenseSlip',
  method: 'POST',
  area: 'slips',
  tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem'],
  summary: 'Change a slip; omitted fields keep their value',
  description:
    "Changes a slip: only the fields sent change, the others keep their value. A slip's type is fixed: `type` may be sent only as " +
    "the slip's own type (a record read back and sent whole), any other type is refused.",
  conflicts: [busyMessage('slip')],
  input: EditExpenseSlipInput,
  output: EditExpenseSlipOutput,
  examples: {
    request: { slip_uid: 4, amount: '64.50', comment: 'Midrand plaza, return (new tariff)' },
    response: { slip_uid: 4 },
  },
} as const satisfies OperationDeclaration;
