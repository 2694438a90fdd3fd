import * as v from 'valibot';
import { JobCardSnapshotRecord } from '../../shared/contracts/job-cards.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';

const GetJobCardHistoryInput = v.object({ job_card_uid: requiredInteger('job_card_uid'), limit: pageLimit(), cursor: pageCursor });

const GetJobCardHistoryOutput = v.object({
  job_card_uid: integerField,
  cnt: integerField,
  history: v.array(JobCardSnapshotRecord),
  next_cursor: nextCursorField,
});

export const contract = { input: GetJobCardHistoryInput, output: GetJobCardHistoryOutput } satisfies OperationContract;
