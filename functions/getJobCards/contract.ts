import * as v from 'valibot';
import { JOB_CARD } from '../../shared/contracts/demo-records.ts';
import { JobCardRecord } from '../../shared/contracts/job-cards.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { described, integerField, optionalText } from '../../shared/contracts/primitives.ts';
import { DAY_OR_NOTHING_PATTERN, DAY_PATTERN } from '../../shared/contracts/wire.ts';
import { MAX_JOB_CARDS } from '../../shared/domain/job-card/rules.ts';
import { isCalendarDate } from '../../shared/domain/time.ts';

const DATE_FORMAT = 'from_date / to_date format error (yyyy-mm-dd)';

/** A bound is optional; an empty value is no bound, as clients often send every parameter. */
const optionalDay = v.optional(
  v.pipe(
    v.string(DATE_FORMAT),
    v.trim(),
    v.regex(DAY_OR_NOTHING_PATTERN, DATE_FORMAT),
    v.check((text) => text === '' || isCalendarDate(text), DATE_FORMAT),
    v.metadata({ wire: { anyOf: [{ type: 'string', format: 'date', pattern: DAY_PATTERN.source }, { const: '' }] } }),
    v.transform((text) => text || undefined),
  ),
);

const GetJobCardsInput = v.pipe(
  v.object({
    from_date: described(
      optionalDay,
      "Only cards created on or after this calendar day (yyyy-mm-dd, the user's offset); empty means no bound.",
    ),
    to_date: described(
      optionalDay,
      "Only cards created on or before this calendar day (yyyy-mm-dd, the user's offset); empty means no bound.",
    ),
    external_reference: described(
      v.pipe(
        optionalText('external_reference', 100),
        v.transform((text) => text || undefined),
      ),
      'Only cards with this external reference (the ReferenceNumber of their document); empty means all.',
    ),
    limit: pageLimit(MAX_JOB_CARDS, {
      description:
        'Paging (docs/paging.md): the most cards this page answers, 1 to 1000; the pages together answer the 1000 newest, as one ' +
        'answer does. An answer that left cards out carries next_cursor.',
    }),
    cursor: pageCursor,
  }),
  v.check((input) => !input.from_date || !input.to_date || input.from_date <= input.to_date, 'from_date may not be after to_date'),
);

const GetJobCardsOutput = v.object({ cnt: integerField, job_cards: v.array(JobCardRecord), next_cursor: nextCursorField });

export const contract = {
  name: 'getJobCards',
  method: 'GET',
  area: 'job cards',
  tableActions: ['BatchGetItem', 'Query'],
  summary: 'The 1000 most recent job cards, by creation date and external reference',
  description:
    "The 1000 most recent job cards of the user, newest first, optionally from and to a calendar day (in the user's offset, both " +
    'included) and with one external reference.',
  input: GetJobCardsInput,
  output: GetJobCardsOutput,
  examples: {
    request: { from_date: '2026-11-01', to_date: '2026-12-31', external_reference: 'WO-2026-1187', limit: 100, cursor: '' },
    response: {
      cnt: 1,
      job_cards: [JOB_CARD],
    },
  },
} as const satisfies OperationDeclaration;
