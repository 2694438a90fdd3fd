/**
 * Runs an NDJSON file of position records through the real pipeline (`npm run ingest -- --file F`, the same as
 * `npm run admin -- ingest --file F`).
 */
import { createReadStream, existsSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { INGEST_BATCH_SIZE, type IngestTotals, ingestRecords } from '../shared/pipeline/ingest.ts';
import { type ParsedArgs, requiredOption, runScript, UsageError, useLocalStack, userPath } from './cli.ts';

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
