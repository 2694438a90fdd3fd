import * as v from 'valibot';
import { JobCardRecord } from '../../shared/contracts/job-cards.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { integerField, optionalText } from '../../shared/contracts/primitives.ts';
import { isCalendarDate } from '../../shared/domain/time.ts';

/** The newest cards one answer, or one walk of pages, holds (the spec's cap). */
export const MAX_JOB_CARDS = 1000;

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

const GetJobCardsInput = v.pipe(
  v.object({
    from_date: optionalDay,
    to_date: optionalDay,
    external_reference: v.pipe(
      optionalText('external_reference', 100),
      v.transform((text) => text || undefined),
    ),
    limit: pageLimit(
      MAX_JOB_CARDS,
      'the most cards this page answers; the pages together answer the 1000 newest; sending it asks for paging',
    ),
    cursor: pageCursor,
  }),
  v.check((input) => !input.from_date || !input.to_date || input.from_date <= input.to_date, 'from_date may not be after to_date'),
);

const GetJobCardsOutput = v.object({ cnt: integerField, job_cards: v.array(JobCardRecord), next_cursor: nextCursorField });

export const contract = { input: GetJobCardsInput, output: GetJobCardsOutput } satisfies OperationContract;
