import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { OPERATOR_NAMES, operatorDetailEntries } from '../../shared/contracts/operators.ts';
import { described, integerField, requiredText } from '../../shared/contracts/primitives.ts';
import { OPERATOR_LIMITS, TAG_ID_TAKEN } from '../../shared/domain/operator.ts';

const AddOperatorInput = v.object({
  fullname: described(requiredText('fullname', OPERATOR_LIMITS.fullname), OPERATOR_NAMES.fullname),
  id_number: described(requiredText('id_number', OPERATOR_LIMITS.id_number), OPERATOR_NAMES.id_number),
  tag_id: described(requiredText('tag_id', OPERATOR_LIMITS.tag_id), OPERATOR_NAMES.tag_id),
  ...operatorDetailEntries,
});

const AddOperatorOutput = v.object({ operator_uid: integerField });

export const contract = {
  name: 'addOperator',
  method: 'POST',
  area: 'operators',
  tableActions: ['PutItem', 'UpdateItem'],
  summary: 'Create an operator; tag_id is unique across all users',
  idempotencyKey: true,
  description:
    "Creates an operator (driver) for the user. fullname, id_number and tag_id are required; tag_id (the driver's identification " +
    "tag, read by the tracking devices) is unique across all users. Fields left out take the spec's defaults: active, no expiry " +
    '(2001-01-01), empty text.',
  conflicts: [TAG_ID_TAKEN],
  input: AddOperatorInput,
  output: AddOperatorOutput,
  examples: {
    request: {
      fullname: 'Sipho Ndlovu',
      id_number: '8507125800086',
      tag_id: '01F8A9B0',
      mobile_number: '+27 84 555 0123',
      employee_number: 'EMP-0063',
      active_flag: 1,
      driver_licence_expiry_datetime: '2028-02-29',
      email_address: 'sipho.ndlovu@example.com',
    },
    response: { operator_uid: 3 },
  },
} as const satisfies OperationDeclaration;
