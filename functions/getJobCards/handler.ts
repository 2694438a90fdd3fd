import { toJobCardRecord } from '../../shared/contracts/job-cards.ts';
import { MAX_JOB_CARDS } from '../../shared/domain/job-card/rules.ts';
import { userDayRange } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { AnswerPage } from '../../shared/paging/answer-page.ts';
import { readJobCards } from '../../shared/store/job-cards.ts';
import type { ItemPosition } from '../../shared/store/requests.ts';
import { contract } from './contract.ts';

/** The 1000 newest cards, whether in one answer or walked a page at a time. */
export const handler = operation(contract, async (context) => {
  const { user, input } = context;
  const offset = user.gmtOffsetMinutes;
  const toRecord = (card: Parameters<typeof toJobCardRecord>[0]) => toJobCardRecord(card, offset);
  const page = await AnswerPage.open<ItemPosition>(context, { maxTotal: MAX_JOB_CARDS });
  const filter = {
    from: input.from_date && userDayRange(input.from_date, input.from_date, offset).from,
    to: input.to_date && userDayRange(input.to_date, input.to_date, offset).to,
    externalReference: input.external_reference,
  };
  await readJobCards(user.userUid, filter, page.reader(toRecord));
  return { cnt: page.size, job_cards: page.records<ReturnType<typeof toRecord>>(), ...(await page.nextCursor()) };
});
