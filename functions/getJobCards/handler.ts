import * as v from 'valibot';
import { JobCardRecord, toJobCardRecord } from '../../shared/domain/job-card.ts';
import { isCalendarDate, userDayRange } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { integerField, optionalText } from '../../shared/contracts/primitives.ts';
import { listJobCards } from '../../shared/store/job-cards.ts';

const DATE_FORMAT = 'from_date / to_date format error (yyyy-mm-dd)';

/** A bound is optional; an empty value is no bound, as clients often send every parameter. */
const optionalDay = v.optional(
  v.pipe(
    v.string(DATE_FORMAT),
    v.trim(),
    v.check((text) => text === '' || isCalendarDate(text), DATE_FORMAT),
    v.transform((text) => text || undefined),
  ),
);

export const GetJobCardsInput = v.pipe(
  v.object({
    from_date: optionalDay,
    to_date: optionalDay,
    external_reference: v.pipe(optionalText('external_reference', 100), v.transform((text) => text || undefined)),
  }),
  v.check((input) => !input.from_date || !input.to_date || input.from_date <= input.to_date, 'from_date may not be after to_date'),
);

export const GetJobCardsOutput = v.object({ cnt: integerField, job_cards: v.array(JobCardRecord) });

export const handler = operation('getJobCards', GetJobCardsInput, async ({ user, input }) => {
  const offset = user.gmtOffsetMinutes;
  const cards = await listJobCards(user.userUid, {
    from: input.from_date && userDayRange(input.from_date, input.from_date, offset).from,
    to: input.to_date && userDayRange(input.to_date, input.to_date, offset).to,
    externalReference: input.external_reference,
  });
  return { cnt: cards.length, job_cards: cards.map((card) => toJobCardRecord(card, offset)) };
}, { output: GetJobCardsOutput });
