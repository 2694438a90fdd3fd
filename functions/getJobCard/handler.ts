import { toJobCardRecord } from '../../shared/contracts/job-cards.ts';
import { operation } from '../../shared/operation.ts';
import { getJobCard } from '../../shared/store/job-cards.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const card = await getJobCard(user.userUid, input.job_card_uid);
  return { job_card: toJobCardRecord(card, user.gmtOffsetMinutes) };
});
