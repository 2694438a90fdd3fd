/**
 * Writes a real Kinesis event (base64 data, sequence numbers, shard ids) for processPositions, carrying
 * normalized position records from an NDJSON file or a short built-in drive of the first demo truck
 * (`npm run make-kinesis-event -- --help`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { runScript, UsageError, userPath, writtenNote } from './cli.ts';
import { samplePosition } from './sample-position.ts';

const SHARD = 'shardId-000000000000';
const ARN = 'arn:aws:kinesis:eu-west-1:123456789012:stream/fleet-positions';

function sampleLines(): string[] {
  const start = Date.parse('2026-11-20T06:00:00Z');
  return Array.from({ length: 6 }, (_, i) =>
    JSON.stringify(
      samplePosition('356307042441013', new Date(start + i * 30_000).toISOString(), {
        latitude: -25.9992 - i * 0.002,
        longitude: 28.1263 - i * 0.001,
        speed: i === 0 ? 0 : 48,
        driver_tag_id: '01A2B3C4',
      }),
    ),
  );
}

function kinesisRecord(line: string, i: number) {
  const sequenceNumber = `4962953728746531234567890123456789012345678901234567${String(i).padStart(4, '0')}`;
  let partitionKey = 'unknown';
  // The stream receives a record a second after its device time: the pipeline measures lateness and the future from here.
  let arrivedS = 1_763_618_400 + i;
  try {
    const record = JSON.parse(line) as { imei?: unknown; gps_datetime?: unknown };
    partitionKey = String(record.imei ?? 'unknown');
    const at = Date.parse(String(record.gps_datetime));
    if (Number.isFinite(at)) arrivedS = at / 1000 + 1;
  } catch {
    // A malformed line still goes in: processPositions rejects it to the dead-letter prefix.
  }
  return {
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey,
      sequenceNumber,
      data: Buffer.from(line).toString('base64'),
      approximateArrivalTimestamp: arrivedS,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `${SHARD}:${sequenceNumber}`,
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn:aws:iam::123456789012:role/fleet-processPositions',
    awsRegion: 'eu-west-1',
    eventSourceARN: ARN,
  };
}

await runScript({
  usage: `
npm run make-kinesis-event -- [positions.ndjson] [--out file.json]

Without --out it REPLACES events/processPositions.json, the sample kept in git (git checkout events/ undoes it).
Paths are relative to the folder you run npm in. Run it with: npm run invoke -- processPositions <file.json>`,
  options: { out: 'string' },
  async run({ values, positionals }) {
    const [input, extra] = positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}; see --help`);
    if (input && !existsSync(userPath(input))) throw new UsageError(`no such file: ${userPath(input)}`);
    const lines = input
      ? readFileSync(userPath(input), 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
      : sampleLines();
    const file = typeof values.out === 'string' ? userPath(values.out) : 'events/processPositions.json';
    writeFileSync(file, `${JSON.stringify({ Records: lines.map(kinesisRecord) }, null, 2)}\n`);
    console.log(`${writtenNote(file, values.out === undefined)}: ${lines.length} records`);
  },
});
