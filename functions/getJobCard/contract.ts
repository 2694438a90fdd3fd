import * as v from 'valibot';
import { JobCardRecord } from '../../shared/contracts/job-cards.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';

const GetJobCardInput = v.object({ job_card_uid: requiredInteger('job_card_uid') });

const GetJobCardOutput = v.object({ job_card: JobCardRecord });

export const contract = { input: GetJobCardInput, output: GetJobCardOutput } satisfies OperationContract;
