/**
 * Paging, the service's extension to the spec (docs/paging.md): optional `limit` and `cursor` on every operation whose
 * answer grows with data, and `next_cursor` in an answer that left records out. A request with neither gets the
 * spec's answer, with no new field.
 */
import * as v from 'valibot';
import { type InputSchema, parameterNamesOf } from './operation.ts';
import { requiredInteger, scalar } from './primitives.ts';

export const DEFAULT_MAX_LIMIT = 10_000;

/** The one answer for every cursor that cannot be used: it says nothing about why, so it reveals nothing. */
export const INVALID_CURSOR = 'cursor is not valid for this request (send the same filters as the call that answered it)';

/** An empty cursor is no cursor, as clients often send every parameter (and a first page has none). */
const absentWhenEmpty = (value: string) => (value === '' ? undefined : value);

const LIMIT_DESCRIPTION =
  'Paging (docs/paging.md): the most records this page answers, 1 to 10,000. Sending it, or cursor, asks for pages: an answer ' +
  'that left records out carries next_cursor, and a page also ends early at the size limit. Without either, the whole answer ' +
  'comes at once, or a 422 when it would be too large.';

interface PageLimitOptions {
  /** what limit means for this operation's records */
  description?: string;
  /** the most records an answer holds without limit, where the operation has such a cap (getPositions' 10,000) */
  serviceDefault?: number;
}

/** `limit`: at most this many records in the answer; setting it (or a cursor) asks for paging. */
export const pageLimit = (max = DEFAULT_MAX_LIMIT, { description = LIMIT_DESCRIPTION, serviceDefault }: PageLimitOptions = {}) => {
  const message = `limit must be an integer from 1 to ${max}`;
  return v.optional(
    v.pipe(
      requiredInteger('limit', message),
      v.minValue(1, message),
      v.maxValue(max, message),
      // Stated, not applied: an absent limit asks for no paging (no next_cursor), though the answer holds no more than this.
      v.metadata({ default: serviceDefault }),
      v.description(description),
    ),
  );
};

/** A cursor as the service makes it (base64url, shared/paging/cursor.ts), or empty for the first page. */
const CURSOR_PATTERN = '^[A-Za-z0-9_-]*$';

/** `cursor`: a previous page's `next_cursor`, sent with the same filters. */
export const pageCursor = v.optional(
  v.pipe(
    scalar(INVALID_CURSOR),
    // The first page's cursor is empty, as absent: the value a tool fills in, and the form Prism checks.
    v.metadata({ pattern: CURSOR_PATTERN, default: '' }),
    v.transform(absentWhenEmpty),
    v.description(
      "The previous answer's next_cursor, sent with the same other parameters: opaque, bound to the API key's user, the " +
        'operation and those parameters; any other use answers 400. Empty or absent: the first page.',
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

/** Whether an operation takes a cursor: the stack gives these, and only these, the key cursors are sealed with. */
export const takesCursor = ({ input }: { input: InputSchema }): boolean => parameterNamesOf(input).includes('cursor');
