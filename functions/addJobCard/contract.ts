import * as v from 'valibot';
import { JOB_CARD_AS_ADDED } from '../../shared/contracts/demo-records.ts';
import { JobCardReceipt, payloadField } from '../../shared/contracts/job-cards.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';

/** `payload` is the form field; a raw JSON body is the payload itself and reaches the handler as `body`. */
const AddJobCardInput = v.object({ payload: payloadField });

const AddJobCardOutput = JobCardReceipt;

export const contract = {
  name: 'addJobCard',
  method: 'POST',
  area: 'job cards',
  tableActions: ['PutItem', 'UpdateItem'],
  summary: 'Store a job card payload from an external system',
  idempotencyKey: true,
  description:
    'Stores a job card document from an external system verbatim: a raw JSON object body, or a form whose `payload` field holds ' +
    'its JSON text. Recognised keys (CompanyId, ReferenceNumber, DueDate, IsDelivery, ...) are extracted for filtering; a value of ' +
    "the wrong type or size is simply not extracted, never a reason to refuse the card. ReferenceNumber becomes the card's " +
    'external_reference.',
  input: AddJobCardInput,
  output: AddJobCardOutput,
  jsonBody: 'payload',
  examples: {
    request: JOB_CARD_AS_ADDED,
    response: { job_card_uid: 1, external_reference: 'WO-2026-1187' },
  },
} as const satisfies OperationDeclaration;
