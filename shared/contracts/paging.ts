/**
 * Paging, the service's extension to the spec (docs/paging.md): optional `limit` and `cursor` on every operation whose
 * answer grows with data, and `next_cursor` in an answer that left records out. A request with neither gets the
 * spec's answer, with no new field.
 */
import * as v from 'valibot';
import { requiredInteger, scalar } from './primitives.ts';

export const DEFAULT_MAX_LIMIT = 10_000;

/** The one answer for every cursor that cannot be used: it says nothing about why, so it reveals nothing. */
export const INVALID_CURSOR = 'cursor is not valid for this request (send the same filters as the call that answered it)';

/** An empty cursor is no cursor, as clients often send every parameter (and a first page has none). */
const absentWhenEmpty = (value: string) => (value === '' ? undefined : value);

/** `limit`: at most this many records in the answer; setting it (or a cursor) asks for paging. */
export const pageLimit = (max = DEFAULT_MAX_LIMIT, description = 'the most records this page answers; sending it asks for paging') => {
  const message = `limit must be an integer from 1 to ${max}`;
  return v.optional(
    v.pipe(
      requiredInteger('limit', message),
      v.minValue(1, message),
      v.maxValue(max, message),
      v.description(`${description} (1 to ${max}); the answer may hold fewer when its records reach the size limit`),
    ),
  );
};

/** `cursor`: a previous page's `next_cursor`, sent with the same filters. */
export const pageCursor = v.optional(
  v.pipe(
    scalar(INVALID_CURSOR),
    v.transform(absentWhenEmpty),
    v.description(
      "the previous answer's next_cursor, with the same filters; it is opaque, bound to the api key's user and to the filters, " +
        'and any other use answers 400',
    ),
  ),
);

/** `next_cursor`: present only when a paged request left records for a next page. */
export const nextCursorField = v.optional(
  v.pipe(
    v.string(),
    v.description('present when a paged request (limit or cursor sent) left records out: send it as cursor for the next page'),
  ),
);

/** The operations that take limit and cursor: the stack gives these, and only these, the cursor key. */
export const pagedOperations: readonly string[] = [
  'getVehicles',
  'getLiveData',
  'getTrips',
  'getPositions',
  'getExpenseSlips',
  'getFuelFillReport',
  'getJobCards',
  'getJobCardHistory',
];
