import * as v from 'valibot';
import { JobCardReceipt, payloadField } from '../../shared/contracts/job-cards.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';

/** With a raw JSON body, job_card_uid (like api_key) can only come from the query string. */
const EditJobCardInput = v.object({
  job_card_uid: requiredInteger('job_card_uid'),
  payload: payloadField,
});

const EditJobCardOutput = JobCardReceipt;

export const contract = { input: EditJobCardInput, output: EditJobCardOutput, jsonBody: 'payload' } satisfies OperationContract;
