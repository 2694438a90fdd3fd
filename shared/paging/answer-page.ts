import { config } from '../config.ts';
import { toResponseJson, writtenRecords } from '../contracts/verbatim-json.ts';
import { AnswerTooLarge } from '../errors.ts';
import type { ItemPosition, PagedRead } from '../store/requests.ts';
import { type CursorScope, openCursor, sealCursor } from './cursor.ts';

/** What a paged operation's request carries besides its filters (docs/paging.md). */
export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** What the chain tells a handler about its answer (shared/operation.ts). */
export interface AnswerContext {
  operation: string;
  /** how many bytes of records the answer may carry: the budget for this client's encoding */
  budgetBytes: number;
}

/** The part of a handler's context a page reads. */
export interface PageContext {
  user: { userUid: number };
  /** the validated request: limit and cursor are taken out, the rest are the filters a cursor is bound to */
  input: PageRequest;
  answer: AnswerContext;
}

export interface PageOptions {
  /** the most records one answer holds without paging, and the most one page holds (getPositions' 10,000) */
  maxPerAnswer?: number;
  /** the most records a whole walk answers (getJobCards' 1000 newest) */
  maxTotal?: number;
}

/**
 * One answer's records, counted as they are read. Each record costs its JSON as Lambda sends it (escaped inside the
 * response JSON) plus a comma; when the next would pass the budget, an unpaged answer is refused before it is built
 * (AnswerTooLarge), and a paged one ends there with a cursor. Readers stop as soon as `add` says no, so a handler
 * never holds much more than it may answer.
 */
export class AnswerPage<Position> {
  /** where this page starts: undefined on the first page */
  readonly after: Position | undefined;
  private readonly scope: CursorScope;
  private readonly paging: boolean;
  private readonly budgetBytes: number;
  private readonly limit: number;
  /** records the walk may still answer, this page included */
  private readonly remaining: number;
  private readonly takenBefore: number;
  /** what the records and frames taken cost: exactly, but for the written pieces from `uncountedFrom` on, at most */
  private usedBytes = 0;
  /** the records taken, as the answer carries them: each written once, when its bytes were counted */
  private readonly written: string[] = [];
  /** the first written piece whose cost `usedBytes` holds as its bound (pieceCostAtMost), not exactly */
  private uncountedFrom = 0;
  private count = 0;
  private last: Position | undefined;
  private more = false;

  private constructor(context: PageContext, options: PageOptions, scope: CursorScope, start: { position?: Position; taken: number }) {
    const { limit, cursor } = context.input;
    this.scope = scope;
    this.paging = limit !== undefined || cursor !== undefined;
    this.budgetBytes = context.answer.budgetBytes;
    this.limit = limit ?? options.maxPerAnswer ?? Number.POSITIVE_INFINITY;
    this.takenBefore = start.taken;
    this.remaining = (options.maxTotal ?? Number.POSITIVE_INFINITY) - start.taken;
    this.after = start.position;
  }

  /** A page for this request: its first when it has no cursor, else where its cursor says (BadRequest for one not its own). */
  static async open<Position>(context: PageContext, options: PageOptions = {}): Promise<AnswerPage<Position>> {
    const { limit: _limit, cursor, ...filters } = context.input;
    const scope = { operation: context.answer.operation, userUid: context.user.userUid, filters };
    const start = cursor === undefined ? { taken: 0 } : await openCursor<Position>(scope, cursor);
    return new AnswerPage<Position>(context, options, scope, start);
  }

  /** What one answer may hold: records (limit or cap) and bytes, for readers that tally in parallel before `add`. */
  get capacity(): { records: number; bytes: number } {
    return { records: Math.min(this.limit, this.remaining), bytes: this.budgetBytes };
  }

  /** Whether the client asked for paging (sent limit or cursor): else the answer is whole or refused. */
  get isPaged(): boolean {
    return this.paging;
  }

  /**
   * Builds each record a reader is offered and takes it when it fits: the PagedRead a store's `read...` function
   * consumes, starting where this page starts.
   */
  reader<T>(this: AnswerPage<ItemPosition>, toRecord: (record: T) => unknown): PagedRead<T> {
    return { after: this.after, most: this.capacity.records, take: (record, position) => this.add(toRecord(record), position) };
  }

  /** How many records this answer has taken. */
  get size(): number {
    return this.count;
  }

  /** Whether records were left out (by the limit or the budget) that a next page would answer. */
  get hasMore(): boolean {
    return this.more;
  }

  /**
   * Takes the record when it fits, remembering its position; false when the page is full (the reader stops and the
   * record goes to the next page). Throws AnswerTooLarge when it does not fit an unpaged answer or even an empty page.
   */
  add(record: unknown, position: Position): boolean {
    if (this.count >= this.remaining) return false;
    if (this.count >= this.limit) {
      this.more = true;
      return false;
    }
    if (!this.takePiece(toResponseJson(record), 1, position)) {
      this.endEarly();
      return false;
    }
    return true;
  }

  /**
   * Takes the records in order while they fit, as `add` one by one would, and answers how many it took. As many as the
   * limit leaves room for are written and counted as one text when their bytes fit (a day of positions: one
   * JSON.stringify, not one per point); else, and for the rest, one by one, up to the first that does not fit.
   */
  addAll(records: readonly unknown[], positionAt: (index: number) => Position): number {
    const room = Math.max(Math.min(this.limit, this.remaining) - this.count, 0);
    let taken = room > 0 && this.takeAtOnce(records.slice(0, room), positionAt) ? Math.min(room, records.length) : 0;
    while (taken < records.length && this.add(records[taken], positionAt(taken))) taken++;
    return taken;
  }

  /** Takes every record when their bytes fit together; else nothing, leaving the records to `add` one by one. */
  private takeAtOnce(records: readonly unknown[], positionAt: (index: number) => Position): boolean {
    if (records.length === 0) return false;
    return this.takePiece(toResponseJson(records).slice(1, -1), records.length, positionAt(records.length - 1));
  }

  /**
   * Takes a written piece (a record's text, or several joined by commas) when its bytes fit, the last of its records
   * at `position`. Its bound is counted while every bound fits (a day of positions, a page of cards: far below the
   * budget, and counting them exactly was a tenth of getPositions' own work); from the first that may not fit, the
   * pieces are counted exactly, so a page takes exactly what counting every byte would take.
   */
  private takePiece(piece: string, records: number, position: Position): boolean {
    const most = pieceCostAtMost(piece);
    const counted = this.usedBytes + most > this.budgetBytes;
    if (counted) {
      this.countExactly();
      const cost = pieceCost(piece);
      if (this.usedBytes + cost > this.budgetBytes) return false;
      this.usedBytes += cost;
    } else this.usedBytes += most;
    this.written.push(piece);
    if (counted) this.uncountedFrom = this.written.length;
    this.last = position;
    this.count += records;
    return true;
  }

  /** Counts the written pieces held at their bound exactly. */
  private countExactly(): void {
    for (const piece of this.written.slice(this.uncountedFrom)) this.usedBytes += pieceCost(piece) - pieceCostAtMost(piece);
    this.uncountedFrom = this.written.length;
  }

  /**
   * The records taken, in order, for the answer to carry as they were counted (written once: the envelope splices
   * them in rather than writing every record again). For an answer whose records are exactly those `add` took.
   */
  records<R>(): R[] {
    return writtenRecords<R>(this.written);
  }

  /**
   * Counts bytes that are not a record (a group's own fields, as getTrips' per-vehicle entry) and moves the position
   * past it; false when a paged answer is full.
   */
  addFrame(frame: unknown, position: Position): boolean {
    return this.take(recordCost(frame), position);
  }

  /**
   * Ends the page where it stands, with more to come (a reader stopped before its records ran out). An unpaged answer,
   * or a page with nothing in it yet, cannot end early: it is too large.
   */
  endEarly(): void {
    if (!this.paging || this.last === undefined) throw new AnswerTooLarge();
    this.more = true;
  }

  /**
   * Ends the page with more to come that the reader did not read (getPositions' dense day): a next page starts
   * after the last record taken or, with none taken, after `position`.
   */
  continueAfter(position: Position): void {
    this.last ??= position;
    this.more = true;
  }

  private take(cost: number, position: Position): boolean {
    if (this.usedBytes + cost > this.budgetBytes) this.countExactly();
    if (this.usedBytes + cost > this.budgetBytes) {
      this.endEarly();
      return false;
    }
    this.usedBytes += cost;
    this.last = position;
    return true;
  }

  /** `next_cursor` when a paged request left records out; nothing otherwise, so an unpaged answer is the spec's. */
  async nextCursor(): Promise<{ next_cursor?: string }> {
    if (!this.paging || !this.more || this.last === undefined) return {};
    return { next_cursor: await sealCursor(this.scope, { position: this.last, taken: this.takenBefore + this.count }) };
  }
}

/**
 * A written piece's share of the Lambda response: its records' JSON as a string inside the response JSON, and a comma
 * for each record (one piece of several records holds the commas between them).
 */
const pieceCost = (piece: string): number => bytesAsJsonString(piece) + 1;

/** No UTF-16 unit writes more than 6 bytes inside a JSON string (`\u001f`, a lone surrogate's escape): a piece's most. */
const pieceCostAtMost = (piece: string): number => piece.length * 6 + 1;

/** What JSON.stringify escapes beyond `"` and `\`: control characters (a payload's raw newline) and surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON.stringify escapes
const ESCAPED_OTHERWISE = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * The UTF-8 bytes of a text written as a JSON string's contents, as JSON.stringify writes it. A text holding only
 * characters written as they are, but `"` and `\` (each one byte more), is counted without writing it again: for a
 * day of positions in one text, writing it again took twice as long as counting.
 */
function bytesAsJsonString(text: string): number {
  if (ESCAPED_OTHERWISE.test(text)) return Buffer.byteLength(JSON.stringify(text), 'utf8') - 2;
  return Buffer.byteLength(text, 'utf8') + occurrences(text, '"') + occurrences(text, '\\');
}

function occurrences(text: string, character: string): number {
  let count = 0;
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count++;
  return count;
}

/** A record's share of the Lambda response: its JSON as a string inside the response JSON, and a separating comma. */
export const recordCost = (record: unknown): number => pieceCost(toResponseJson(record));

/**
 * gzip shrinks the service's JSON to about a tenth (measured: `npm run bench -- sizes`, docs/operations.md), and base64
 * adds a third: a gzip answer's records may be four times the plain budget and its response still fit Lambda's limit.
 * Data that compresses worse (job card payloads of random text) meets the answer-encoding net instead.
 */
export const GZIP_BUDGET_FACTOR = 4;

export const answerBudgetBytes = (gzip: boolean): number => config.answerBudgetBytes() * (gzip ? GZIP_BUDGET_FACTOR : 1);
