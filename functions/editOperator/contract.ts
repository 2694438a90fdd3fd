import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { nonBlankText, operatorDetailEntries } from '../../shared/contracts/operators.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';

const EditOperatorInput = v.object({
  operator_uid: requiredInteger('operator_uid'),
  fullname: nonBlankText('fullname'),
  id_number: nonBlankText('id_number'),
  tag_id: nonBlankText('tag_id'),
  ...operatorDetailEntries,
});

const EditOperatorOutput = v.object({ operator_uid: integerField });

export const contract = { input: EditOperatorInput, output: EditOperatorOutput } satisfies OperationContract;
