import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nonBlankText, OPERATOR_NAMES, operatorDetailEntries, operatorUid } from '../../shared/contracts/operators.ts';
import { described, integerField } from '../../shared/contracts/primitives.ts';
import { TAG_ID_TAKEN } from '../../shared/domain/operator.ts';
import { busyMessage } from '../../shared/errors.ts';

const EditOperatorInput = v.object({
  operator_uid: operatorUid,
  fullname: described(nonBlankText('fullname'), OPERATOR_NAMES.fullname),
  id_number: described(nonBlankText('id_number'), OPERATOR_NAMES.id_number),
  tag_id: described(nonBlankText('tag_id'), OPERATOR_NAMES.tag_id),
  ...operatorDetailEntries,
});

const EditOperatorOutput = v.object({ operator_uid: integerField });

export const contract = {
  name: 'editOperator',
  method: 'POST',
  area: 'operators',
  tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  summary: 'Change an operator; omitted fields keep their value',
  description:
    'Changes an operator: only the fields sent change. fullname, id_number and tag_id may be left out but not blanked; a new ' +
    "tag_id must not be anyone else's.",
  conflicts: [TAG_ID_TAKEN, busyMessage('operator')],
  input: EditOperatorInput,
  output: EditOperatorOutput,
  examples: {
    request: { operator_uid: 3, mobile_number: '+27 84 555 0124', active_flag: '0' },
    response: { operator_uid: 3 },
  },
} as const satisfies OperationDeclaration;
