import * as v from 'valibot';
import { JobCardSnapshotRecord } from '../../shared/contracts/job-cards.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';

const GetJobCardHistoryInput = v.object({ job_card_uid: requiredInteger('job_card_uid') });

const GetJobCardHistoryOutput = v.object({ job_card_uid: integerField, cnt: integerField, history: v.array(JobCardSnapshotRecord) });

export const contract = { input: GetJobCardHistoryInput, output: GetJobCardHistoryOutput } satisfies OperationContract;
