/**
 * Runs an NDJSON file of position records through the real pipeline (`npm run ingest -- --file F`, the same as
 * `npm run admin -- ingest --file F`).
 */
import { createReadStream, existsSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { type BatchOutcome, processPositions, type RawRecord } from '../shared/pipeline/process-positions.ts';
import { type ParsedArgs, requiredOption, runScript, UsageError, useLocalStack, userPath } from './cli.ts';

/** Records per batch, as the Kinesis event source hands them to processPositions in AWS. */
export const INGEST_BATCH_SIZE = 1000;

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
    const outcome: BatchOutcome = await processPositions(batch, { batchName: `${batchPrefix}-${String(batchNumber++).padStart(6, '0')}` });
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

export function ingestFile(file: string): Promise<IngestTotals> {
  return ingestRecords(createInterface({ input: createReadStream(file), crlfDelay: Infinity }), `ingest-${basename(file)}`);
}

/** `--file F`: the file's records through the pipeline; what `ingest` and `admin ingest` print. */
export async function ingestFileOption(values: ParsedArgs['values']): Promise<Omit<IngestTotals, 'writeRequests'>> {
  const file = userPath(requiredOption(values, 'file'));
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const { records, vehicles, trips, fills, rejected } = await ingestFile(file);
  return { records, vehicles, trips, fills, rejected };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runScript({
    usage: `
npm run ingest -- --file positions.ndjson     (with \`npm start\` running)

Feeds normalized position records (one JSON object a line, see docs/positions-pipeline.md) through
processPositions in Kinesis-sized batches of ${INGEST_BATCH_SIZE}, and prints the totals as one JSON object.
A relative path is read from the folder you run npm in.`,
    options: { file: 'string' },
    async run({ values, positionals }) {
      if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}; see --help`);
      await useLocalStack();
      console.log(JSON.stringify(await ingestFileOption(values)));
    },
  });
}
