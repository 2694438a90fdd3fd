/**
 * Simulates a realistic day for the demo vehicles and runs it through the positions pipeline of the
 * `npm start` stack, or writes it as NDJSON for `npm run ingest -- --file`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { localDataDir } from '../local/data-dir.ts';
import { isCalendarDate } from '../shared/domain/time.ts';
import { ingestRecords } from '../shared/pipeline/ingest.ts';
import { demoFleetDay, interleave, recordsUntil } from '../simulator/index.ts';
import { runScript, UsageError, useLocalStack, userPath } from './cli.ts';

const DEMO_IMEIS = ['356307042441013', '356307042441021', '356307042441039'];

await runScript({
  usage: `
npm run simulate -- [--date yyyy-mm-dd] [--out file.ndjson] [--seed N]

  (no options)         today (UTC) up to now, into the running local stack (\`npm start\`)
  --date yyyy-mm-dd    another day (a day in the past is simulated whole; nothing later than now)
  --out file.ndjson    write the records to this file (relative to the folder you run npm in) instead
  --seed N             another variation of the day (default: derived from the date)`,
  options: { date: 'string', out: 'string', seed: 'string' },
  async run({ values, positionals }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}; see --help`);
    const date = typeof values.date === 'string' ? values.date : new Date().toISOString().slice(0, 10);
    if (!isCalendarDate(date)) throw new UsageError('--date must be a date yyyy-mm-dd');
    const seed = values.seed === undefined ? Date.parse(date) / 86_400_000 : Number(values.seed);
    if (!Number.isSafeInteger(seed)) throw new UsageError('--seed must be an integer');
    const demoFile = `${localDataDir()}/demo.json`;
    const saved = existsSync(demoFile) ? (JSON.parse(readFileSync(demoFile, 'utf8')) as { imeis?: string[] }).imeis : undefined;
    const imeis = saved?.length ? saved : DEMO_IMEIS;
    const lines = recordsUntil(interleave(demoFleetDay(date, imeis, seed)), Date.now()).map((record) => JSON.stringify(record));
    if (typeof values.out === 'string') {
      const file = userPath(values.out);
      writeFileSync(file, `${lines.join('\n')}\n`);
      console.log(JSON.stringify({ file, records: lines.length, date }));
      return;
    }
    await useLocalStack();
    const totals = await ingestRecords(lines, `simulate-${date}`);
    console.log(JSON.stringify({ date, records: totals.records, vehicles: totals.vehicles, trips: totals.trips, fills: totals.fills }));
  },
});
