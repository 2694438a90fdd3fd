import { toSnapshotRecord } from '../../shared/contracts/job-cards.ts';
import { operation } from '../../shared/operation.ts';
import { listJobCardHistory } from '../../shared/store/job-cards.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const history = await listJobCardHistory(user.userUid, input.job_card_uid);
  return {
    job_card_uid: input.job_card_uid,
    cnt: history.length,
    history: history.map((snapshot) => toSnapshotRecord(snapshot, user.gmtOffsetMinutes)),
  };
});
