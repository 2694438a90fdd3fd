import { toJobCardRecord } from '../../shared/contracts/job-cards.ts';
import { userDayRange } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { listJobCards } from '../../shared/store/job-cards.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const offset = user.gmtOffsetMinutes;
  const cards = await listJobCards(user.userUid, {
    from: input.from_date && userDayRange(input.from_date, input.from_date, offset).from,
    to: input.to_date && userDayRange(input.to_date, input.to_date, offset).to,
    externalReference: input.external_reference,
  });
  return { cnt: cards.length, job_cards: cards.map((card) => toJobCardRecord(card, offset)) };
});
