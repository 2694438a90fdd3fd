import * as v from 'valibot';
import { JobCardReceipt, payloadField } from '../../shared/contracts/job-cards.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';

/** `payload` is the form field; a raw JSON body is the payload itself and reaches the handler as `body`. */
const AddJobCardInput = v.object({ payload: payloadField });

const AddJobCardOutput = JobCardReceipt;

export const contract = { input: AddJobCardInput, output: AddJobCardOutput, jsonBody: 'payload' } satisfies OperationContract;
