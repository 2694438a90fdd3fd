/**
 * Writes events/processPositions.json: a real Kinesis event (base64 data, sequence numbers, shard ids)
 * carrying normalized position records from an NDJSON file or a short built-in drive of the first demo truck.
 *   node scripts/make-kinesis-event.ts [positions.ndjson]
 */
import { readFileSync, writeFileSync } from 'node:fs';

const SHARD = 'shardId-000000000000';
const ARN = 'arn:aws:kinesis:eu-west-1:123456789012:stream/fleet-positions';

function sampleLines(): string[] {
  const start = Date.parse('2026-11-20T06:00:00Z');
  return Array.from({ length: 6 }, (_, i) =>
    JSON.stringify({
      imei: '356307042441013', gps_datetime: new Date(start + i * 30_000).toISOString(), latitude: -25.9992 - i * 0.002,
      longitude: 28.1263 - i * 0.001, speed: i === 0 ? 0 : 48, heading: 200, ignition: true, odometer_km: null,
      engine_hours: null, fuel_raw: 160.4, supp_volt: 13.9, int_batt_volt: 4.1, int_temp: 29, ext_temp: null,
      driver_tag_id: '01A2B3C4', device_type: 'FMB920', config: '12',
    }),
  );
}

const file = process.argv[2];
const lines = file ? readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '') : sampleLines();
const records = lines.map((line, i) => {
  const sequenceNumber = `4962953728746531234567890123456789012345678901234567${String(i).padStart(4, '0')}`;
  return {
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: String((JSON.parse(line) as { imei?: unknown }).imei ?? 'unknown'),
      sequenceNumber,
      data: Buffer.from(line).toString('base64'),
      approximateArrivalTimestamp: 1_763_618_400 + i,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `${SHARD}:${sequenceNumber}`,
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn:aws:iam::123456789012:role/fleet-processPositions',
    awsRegion: 'eu-west-1',
    eventSourceARN: ARN,
  };
});
writeFileSync('events/processPositions.json', `${JSON.stringify({ Records: records }, null, 2)}\n`);
console.log(`events/processPositions.json: ${records.length} records`);
