import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { operatorDetailEntries } from '../../shared/contracts/operators.ts';
import { integerField, requiredText } from '../../shared/contracts/primitives.ts';
import { OPERATOR_LIMITS } from '../../shared/domain/operator.ts';

const AddOperatorInput = v.object({
  fullname: requiredText('fullname', OPERATOR_LIMITS.fullname),
  id_number: requiredText('id_number', OPERATOR_LIMITS.id_number),
  tag_id: requiredText('tag_id', OPERATOR_LIMITS.tag_id),
  ...operatorDetailEntries,
});

const AddOperatorOutput = v.object({ operator_uid: integerField });

export const contract = { input: AddOperatorInput, output: AddOperatorOutput } satisfies OperationContract;
