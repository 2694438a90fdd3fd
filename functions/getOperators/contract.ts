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
          operator_uid: 2,
          id_number: '9106230234081',
          fullname: 'Anele Dlamini',
          tag_id: '01D5E6F7',
          default_trip_type: 0,
          mobile_number: '+27 83 555 0199',
          home_number: '',
          driver_licence_expiry_datetime: '2027-05-31 00:00:00',
          pdp_expiry_datetime: '2026-12-31 00:00:00',
          dgp_expiry_datetime: '2001-01-01 00:00:00',
          mc_expiry_datetime: '2001-01-01 00:00:00',
          employee_number: 'EMP-0057',
          current_points: '0',
          home_address: '',
          next_of_kin: '',
          next_of_kin_contact_number: '',
          active_flag: 1,
          email_address: '',
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
