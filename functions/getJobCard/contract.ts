import * as v from 'valibot';
import { JOB_CARD } from '../../shared/contracts/demo-records.ts';
import { JobCardRecord, jobCardUid } from '../../shared/contracts/job-cards.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';

const GetJobCardInput = v.object({ job_card_uid: jobCardUid });

const GetJobCardOutput = v.object({ job_card: JobCardRecord });

export const contract = {
  name: 'getJobCard',
  method: 'GET',
  area: 'job cards',
  tableActions: ['GetItem'],
  summary: 'One job card with its stored payload',
  description:
    "One job card by job_card_uid with its document exactly as stored, its external reference, creation time (in the user's " +
    'offset) and the address it came from.',
  input: GetJobCardInput,
  output: GetJobCardOutput,
  examples: {
    request: { job_card_uid: 1 },
    response: {
      job_card: JOB_CARD,
    },
  },
} as const satisfies OperationDeclaration;
