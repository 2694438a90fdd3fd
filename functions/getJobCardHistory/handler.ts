import * as v from 'valibot';
import { JobCardSnapshotRecord, toSnapshotRecord } from '../../shared/domain/job-card.ts';
import { operation } from '../../shared/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import { listJobCardHistory } from '../../shared/store/job-cards.ts';

export const GetJobCardHistoryInput = v.object({ job_card_uid: requiredInteger('job_card_uid') });

export const GetJobCardHistoryOutput = v.object({ job_card_uid: integerField, cnt: integerField, history: v.array(JobCardSnapshotRecord) });

export const handler = operation('getJobCardHistory', GetJobCardHistoryInput, async ({ user, input }) => {
  const history = await listJobCardHistory(user.userUid, input.job_card_uid);
  return {
    job_card_uid: input.job_card_uid,
    cnt: history.length,
    history: history.map((snapshot) => toSnapshotRecord(snapshot, user.gmtOffsetMinutes)),
  };
}, { output: GetJobCardHistoryOutput });
