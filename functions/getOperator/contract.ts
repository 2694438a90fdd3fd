import * as v from 'valibot';
import { THABO_MOKOENA } from '../../shared/contracts/demo-records.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { OperatorRecord, operatorUid } from '../../shared/contracts/operators.ts';

const GetOperatorInput = v.object({ operator_uid: operatorUid });

const GetOperatorOutput = v.object({ operator: OperatorRecord });

export const contract = {
  name: 'getOperator',
  method: 'GET',
  area: 'operators',
  tableActions: ['GetItem'],
  summary: 'One operator by operator_uid',
  description: "One of the user's operators by operator_uid.",
  input: GetOperatorInput,
  output: GetOperatorOutput,
  examples: {
    request: { operator_uid: 1 },
    response: {
      operator: THABO_MOKOENA,
    },
  },
} as const satisfies OperationDeclaration;
