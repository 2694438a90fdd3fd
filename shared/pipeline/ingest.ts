/**
 * Feeds lines of position records through the real pipeline in Kinesis-sized batches: what `npm run ingest`
 * and the demo seed of `npm start` use, so local data arrives as it would in AWS.
 */
import { type Clock, systemClock } from '../clock.ts';
import { type BatchOutcome, processPositions, type RawRecord } from './process-positions.ts';

/** Records per batch, as the Kinesis event source hands them to processPositions in AWS. */
export const INGEST_BATCH_SIZE = 1000;
/**
 * How often a batch is tried, the first time included: the event source retries a batch until it is taken, and a busy
 * machine's DynamoDB Local can time out several calls of a big batch in a row.
 */
const INGEST_ATTEMPTS = 6;

export interface IngestTotals {
  records: number;
  vehicles: number;
  trips: number;
  fills: number;
  rejected: number;
  writeRequests: number;
}

/** Feeds records through the real pipeline in Kinesis-sized batches, in order; the pauses between attempts are `clock`'s. */
export async function ingestRecords(
  lines: AsyncIterable<string> | Iterable<string>,
  batchPrefix: string,
  clock: Pick<Clock, 'sleep'> = systemClock,
): Promise<IngestTotals> {
  const totals: IngestTotals = { records: 0, vehicles: 0, trips: 0, fills: 0, rejected: 0, writeRequests: 0 };
  const imeis = new Set<string>();
  let batch: RawRecord[] = [];
  let batchNumber = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const outcome = await processRedelivered(batch, `${batchPrefix}-${String(batchNumber++).padStart(6, '0')}`, clock);
    if (outcome.failedIds.length > 0) throw new Error(`${outcome.failedIds.length} records failed to process; see the log`);
    totals.records += outcome.records;
    totals.trips += outcome.trips;
    totals.fills += outcome.fills;
    totals.rejected += outcome.rejected.length;
    totals.writeRequests += outcome.writeRequests;
    for (const imei of outcome.imeis) imeis.add(imei);
    batch = [];
  };
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === '') continue;
    batch.push({ id: String(lineNumber), data: line });
    if (batch.length === INGEST_BATCH_SIZE) await flush();
  }
  await flush();
  totals.vehicles = imeis.size;
  return totals;
}

/**
 * A batch as the Kinesis event source hands it over: a batch whose processing throws is delivered again whole, a
 * partial failure again with its failed vehicles' records, waiting longer each time; the last attempt's failure stands.
 */
async function processRedelivered(batch: readonly RawRecord[], batchName: string, clock: Pick<Clock, 'sleep'>): Promise<BatchOutcome> {
  let pending = batch;
  let outcome: BatchOutcome | undefined;
  for (let attempt = 1; ; attempt++) {
    // the whole batch again keeps its name, so its raw archive is overwritten, not doubled
    const name = pending === batch ? batchName : `${batchName}-retry-${attempt - 1}`;
    try {
      const result = await processPositions(pending, { batchName: name });
      outcome = outcome === undefined ? result : withRetried(outcome, result);
      if (result.failedIds.length === 0 || attempt === INGEST_ATTEMPTS) return outcome;
      const failed = new Set(result.failedIds);
      pending = pending.filter((record) => failed.has(record.id));
    } catch (error) {
      if (attempt === INGEST_ATTEMPTS) throw error;
    }
    await clock.sleep(attempt * 500);
  }
}

/** The batch's outcome after a retry of its failed records: counted once, what each attempt found added up. */
const withRetried = (outcome: BatchOutcome, retried: BatchOutcome): BatchOutcome => ({
  ...retried,
  records: outcome.records,
  trips: outcome.trips + retried.trips,
  fills: outcome.fills + retried.fills,
  rejected: [...outcome.rejected, ...retried.rejected],
  imeis: [...new Set([...outcome.imeis, ...retried.imeis])],
  writeRequests: outcome.writeRequests + retried.writeRequests,
});
