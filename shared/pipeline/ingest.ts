/**
 * Feeds lines of position records through the real pipeline in Kinesis-sized batches: what `npm run ingest`
 * and the demo seed of `npm start` use, so local data arrives as it would in AWS.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type BatchOutcome, processPositions, type RawRecord } from './process-positions.ts';

/** Records per batch, as the Kinesis event source hands them to processPositions in AWS. */
export const INGEST_BATCH_SIZE = 1000;
/**
 * How often a batch's failed records are tried, the first time included: the event source retries a vehicle's records
 * until they are taken, and a busy machine's DynamoDB Local can time out several writes of a big batch in a row.
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

/** Feeds records through the real pipeline in Kinesis-sized batches, in order. */
export async function ingestRecords(lines: AsyncIterable<string> | Iterable<string>, batchPrefix: string): Promise<IngestTotals> {
  const totals: IngestTotals = { records: 0, vehicles: 0, trips: 0, fills: 0, rejected: 0, writeRequests: 0 };
  const imeis = new Set<string>();
  let batch: RawRecord[] = [];
  let batchNumber = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const batchName = `${batchPrefix}-${String(batchNumber++).padStart(6, '0')}`;
    let outcome: BatchOutcome = await processPositions(batch, { batchName });
    // as Kinesis redelivers a partial batch failure: the failed vehicles' records again (a busy machine times writes out)
    for (let attempt = 1; outcome.failedIds.length > 0 && attempt < INGEST_ATTEMPTS; attempt++) {
      const failed = new Set(outcome.failedIds);
      await sleep(attempt * 500);
      const retried = await processPositions(
        batch.filter((record) => failed.has(record.id)),
        { batchName: `${batchName}-retry-${attempt}` },
      );
      outcome = {
        ...retried,
        records: outcome.records,
        trips: outcome.trips + retried.trips,
        fills: outcome.fills + retried.fills,
        rejected: [...outcome.rejected, ...retried.rejected],
        imeis: [...new Set([...outcome.imeis, ...retried.imeis])],
        writeRequests: outcome.writeRequests + retried.writeRequests,
      };
    }
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
