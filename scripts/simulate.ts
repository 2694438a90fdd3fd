/**
 * Simulates a realistic day for the demo vehicles and runs it through the positions pipeline of the
 * `npm start` stack (or writes it as NDJSON for `npm run admin -- ingest --file`).
 *   npm run simulate                       today (UTC), into the running local stack
 *   npm run simulate -- --date 2026-11-20  another day
 *   npm run simulate -- --out day.ndjson   write the records instead
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { demoFleetDay, interleave } from '../local/simulator.ts';
import { ingestRecords } from './ingest.ts';
import { useLocalStackDefaults } from './local-defaults.ts';

const DEMO_IMEIS = ['356307042441013', '356307042441021', '356307042441039'];

const { values } = parseArgs({ options: { date: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } });
const date = values.date ?? new Date().toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
  console.error('--date must be yyyy-mm-dd');
  process.exit(1);
}
const demoFile = `${process.env.LOCAL_DATA_DIR ?? '.local'}/demo.json`;
const imeis = existsSync(demoFile) ? (JSON.parse(readFileSync(demoFile, 'utf8')) as { imeis: string[] }).imeis : DEMO_IMEIS;
const lines = interleave(demoFleetDay(date, imeis, Number(values.seed ?? Date.parse(date) / 86_400_000))).map((record) => JSON.stringify(record));

if (values.out) {
  writeFileSync(values.out, `${lines.join('\n')}\n`);
  console.log(JSON.stringify({ file: values.out, records: lines.length, date }));
} else {
  useLocalStackDefaults();
  const totals = await ingestRecords(lines, `simulate-${date}`);
  console.log(JSON.stringify({ date, records: totals.records, vehicles: totals.vehicles, trips: totals.trips, fills: totals.fills }));
}
