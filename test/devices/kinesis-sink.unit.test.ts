/** The Kinesis sink against a mocked client: PutRecords' partial failures cannot be produced locally on demand. */
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { kinesisSink, RecordsNotAccepted } from '../../shared/devices/kinesis-sink.ts';
import type { PositionRecordInput } from '../../shared/domain/tracking/position.ts';
import { aPositionRecord, DEPOT } from '../support/position-builders.ts';

const kinesis = mockClient(KinesisClient);
// the worker's next files share this class (vitest.config.ts, isolate: false)
afterAll(() => kinesis.restore());
const sink = () => kinesisSink({ client: new KinesisClient({ region: 'eu-west-1' }), streamName: 'positions', backoffMs: 1 });

const records = (count: number, imei = '356000000000001'): PositionRecordInput[] =>
  Array.from({ length: count }, (_, i) => ({
    ...aPositionRecord(imei, new Date(Date.UTC(2026, 0, 1, 8, 0, i)).toISOString()),
    latitude: DEPOT.lat,
    longitude: DEPOT.lng,
  }));

const sentInputs = (): PutRecordsCommandInput[] => kinesis.commandCalls(PutRecordsCommand).map((call) => call.args[0].input);
const decoded = (input: PutRecordsCommandInput) =>
  (input.Records ?? []).map((entry) => JSON.parse(Buffer.from(entry.Data ?? []).toString()));

/** Answers each call by the entries' positions: those `failing` picks get an ErrorCode. */
const answerFailing = (failing: (data: { gps_datetime: string }, call: number) => boolean) => {
  let call = 0;
  kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => {
    call++;
    const results = decoded(input).map((data) =>
      failing(data, call)
        ? { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'slow down' }
        : { SequenceNumber: '1', ShardId: 's' },
    );
    return { FailedRecordCount: results.filter((result) => 'ErrorCode' in result).length, Records: results };
  });
};

beforeEach(() => kinesis.reset());

describe('the Kinesis position sink', () => {
  it('puts every record on the stream named, partitioned by its IMEI', async () => {
    // Prepare
    answerFailing(() => false);
    const input = [...records(2, '356000000000001'), ...records(1, '356000000000002')];
    // Act
    await sink().put(input);
    // Assess
    const [sent] = sentInputs();
    expect(sent?.StreamName).toBe('positions');
    expect(sent?.Records?.map((entry) => entry.PartitionKey)).toEqual(['356000000000001', '356000000000001', '356000000000002']);
    expect(decoded(sent as PutRecordsCommandInput)).toEqual(input);
  });

  it('splits records into calls of at most 500', async () => {
    // Prepare
    answerFailing(() => false);
    // Act
    await sink().put(records(1201));
    // Assess
    expect(sentInputs().map((input) => input.Records?.length)).toEqual([500, 500, 201]);
  });

  it('keeps each call within 5 MiB', async () => {
    // Prepare
    answerFailing(() => false);
    const large = records(12).map((record) => ({ ...record, config: 'x'.repeat(900_000) }));
    // Act
    await sink().put(large);
    // Assess
    const sizes = sentInputs().map((input) => (input.Records ?? []).reduce((sum, entry) => sum + (entry.Data?.length ?? 0), 0));
    expect(sizes.length).toBeGreaterThan(2);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(sentInputs().flatMap((input) => input.Records ?? [])).toHaveLength(12);
  });

  it('puts again only the records a call reported failed, and resolves once all are taken', async () => {
    // Prepare: the second record fails the first time
    const input = records(3);
    answerFailing((data, call) => call === 1 && data.gps_datetime === input[1]?.gps_datetime);
    // Act
    await sink().put(input);
    // Assess
    const [first, second] = sentInputs();
    expect(first?.Records).toHaveLength(3);
    expect(decoded(second as PutRecordsCommandInput)).toEqual([input[1]]);
  });

  it('rejects when records are still failed after the last attempt, so the device is not acknowledged', async () => {
    // Prepare: one record is throttled every time
    const input = records(3);
    answerFailing((data) => data.gps_datetime === input[2]?.gps_datetime);
    // Act
    const put = sink().put(input);
    // Assess
    await expect(put).rejects.toThrow(new RecordsNotAccepted(1));
    expect(sentInputs()).toHaveLength(3);
  });

  it('rejects when the stream cannot be reached', async () => {
    // Prepare
    kinesis.on(PutRecordsCommand).rejects(Object.assign(new Error('no such stream'), { name: 'ResourceNotFoundException' }));
    // Act
    const put = sink().put(records(2));
    // Assess
    await expect(put).rejects.toBeInstanceOf(RecordsNotAccepted);
  });
});
