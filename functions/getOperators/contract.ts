import * as v from 'valibot';
import { THABO_MOKOENA } from '../../shared/contracts/demo-records.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { OperatorRecord } from '../../shared/contracts/operators.ts';
import { integerField } from '../../shared/contracts/primitives.ts';

const GetOperatorsInput = v.object({});

const GetOperatorsOutput = v.object({ cnt: integerField, operators: v.array(OperatorRecord) });

export const contract = {
  name: 'getOperators',
  method: 'GET',
  area: 'operators',
  tableActions: ['Query'],
  summary: "The user's operators (drivers)",
  description: "The user's operators (drivers), each with its tag_id, contact details, expiry dates and active flag.",
  input: GetOperatorsInput,
  output: GetOperatorsOutput,
  examples: {
    request: {},
    response: {
      cnt: 2,
      operators: [
        THABO_MOKOENA,
        {
          ...THABO_MOKOENA,
          operator_uid: 2,
          id_number: '9106230234081',
          fullname: 'Anele Dlamini',
          tag_id: '01D5E6F7',
          mobile_number: '+27 83 555 0199',
          employee_number: 'EMP-0057',
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
