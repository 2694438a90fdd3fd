import * as v from 'valibot';
import { VAN_FUEL_SLIP } from '../../shared/contracts/demo-records.ts';
import { SlipRecord, slipUid } from '../../shared/contracts/expense-slips.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';

const GetExpenseSlipInput = v.object({ slip_uid: slipUid });

const GetExpenseSlipOutput = v.object({ slip: SlipRecord });

export const contract = {
  name: 'getExpenseSlip',
  method: 'GET',
  area: 'slips',
  tableActions: ['GetItem', 'BatchGetItem'],
  summary: 'One slip by slip_uid, fill slips included',
  description: "One slip by slip_uid, of any type, fill slips included, when its vehicle is linked to the key's user.",
  input: GetExpenseSlipInput,
  output: GetExpenseSlipOutput,
  examples: {
    request: { slip_uid: 1 },
    response: {
      slip: VAN_FUEL_SLIP,
    },
  },
} as const satisfies OperationDeclaration;
