import { toSnapshotRecord } from '../../shared/contracts/job-cards.ts';
import { operation } from '../../shared/operation.ts';
import { AnswerPage } from '../../shared/paging/answer-page.ts';
import { readJobCardHistory } from '../../shared/store/job-cards.ts';
import type { ItemPosition } from '../../shared/store/requests.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async (context) => {
  const { user, input } = context;
  const toRecord = (snapshot: Parameters<typeof toSnapshotRecord>[0]) => toSnapshotRecord(snapshot, user.gmtOffsetMinutes);
  const page = await AnswerPage.open<ItemPosition>(context);
  await readJobCardHistory(user.userUid, input.job_card_uid, page.reader(toRecord));
  return {
    job_card_uid: input.job_card_uid,
    cnt: page.size,
    history: page.records<ReturnType<typeof toRecord>>(),
    ...(await page.nextCursor()),
  };
});
