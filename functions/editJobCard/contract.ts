import * as v from 'valibot';
import { JOB_CARD_AS_EDITED } from '../../shared/contracts/demo-records.ts';
import { JobCardReceipt, payloadField } from '../../shared/contracts/job-cards.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, requiredInteger } from '../../shared/contracts/primitives.ts';
import { busyMessage } from '../../shared/errors.ts';

/** With a raw JSON body, job_card_uid (like api_key) can only come from the query string. */
const EditJobCardInput = v.object({
  job_card_uid: described(
    requiredInteger('job_card_uid'),
    'The job card to replace: in the query string, or as a form field when the body is a form (a raw JSON body is the document itself).',
  ),
  payload: payloadField,
});

const EditJobCardOutput = JobCardReceipt;

export const contract = {
  name: 'editJobCard',
  method: 'POST',
  area: 'job cards',
  tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  summary: "Replace a job card's payload",
  description:
    "Replaces a job card's document, keeping a snapshot of every version (getJobCardHistory). With a raw JSON body, job_card_uid " +
    'is in the query string; with a form it may be a form field too.',
  conflicts: [busyMessage('job card')],
  input: EditJobCardInput,
  output: EditJobCardOutput,
  jsonBody: 'payload',
  examples: {
    query: { job_card_uid: 1 },
    request: JOB_CARD_AS_EDITED,
    response: { job_card_uid: 1, external_reference: 'WO-2026-1187' },
  },
} as const satisfies OperationDeclaration;
