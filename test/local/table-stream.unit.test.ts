/**
 * The local stream reader when its place in a shard is gone: DynamoDB Local trims a busy shard under a reader's
 * iterator, and an iterator expires after 15 minutes. Both are injected here (aws-sdk-client-mock): neither can be
 * brought about on purpose against DynamoDB Local.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startTableStream } from '../../local/table-stream.ts';

const STREAM_ARN = 'arn:aws:dynamodb:local:000000000000:table/fleet/stream/2026-11-29T00:00:00.000';
const dynamo = mockClient(DynamoDBClient);
const streams = mockClient(DynamoDBStreamsClient);
// the worker's next files share these classes (vitest.config.ts, isolate: false)
afterAll(() => {
  dynamo.restore();
  streams.restore();
});

afterEach(() => {
  dynamo.reset();
  streams.reset();
});

const aRecord = (sequenceNumber: string) => ({
  eventName: 'INSERT' as const,
  dynamodb: { SequenceNumber: sequenceNumber, Keys: { pk: { S: `EVENT#${sequenceNumber}` } } },
});

/** A table with one open shard whose reader starts at iterator `first`. */
function givenOneShard(): void {
  dynamo.on(DescribeTableCommand).resolves({ Table: { LatestStreamArn: STREAM_ARN } });
  streams.on(DescribeStreamCommand).resolves({ StreamDescription: { Shards: [{ ShardId: 'shard-1', SequenceNumberRange: {} }] } });
  streams.on(GetShardIteratorCommand, { ShardIteratorType: 'LATEST' }).resolves({ ShardIterator: 'first' });
}

/** Reads until the handler has seen `count` records, then stops the reader. */
async function recordsHandled(count: number): Promise<string[]> {
  const seen: string[] = [];
  let done: () => void = () => undefined;
  const enough = new Promise<void>((resolve) => {
    done = resolve;
  });
  const reader = await startTableStream({
    endpoint: 'http://127.0.0.1:1',
    tableName: 'fleet',
    idleMs: 1,
    handler: async (event: DynamoDBStreamEvent) => {
      seen.push(...event.Records.map((record) => record.dynamodb?.SequenceNumber ?? ''));
      if (seen.length >= count) done();
      return { batchItemFailures: [] };
    },
  });
  await enough;
  await reader.stop();
  return seen;
}

describe('the local stream reader whose place in a shard is gone', () => {
  for (const [what, lost] of [
    ['trimmed under it', new TrimmedDataAccessException({ message: 'read past the oldest stream record', $metadata: {} })],
    ['expired', new ExpiredIteratorException({ message: 'iterator expired', $metadata: {} })],
  ] as const)
    it(`goes on after the last record it handled when its iterator is ${what}`, async () => {
      // Prepare
      givenOneShard();
      streams.on(GetRecordsCommand, { ShardIterator: 'first' }).resolves({ Records: [aRecord('100')], NextShardIterator: 'lost' });
      streams.on(GetRecordsCommand, { ShardIterator: 'lost' }).rejects(lost);
      streams
        .on(GetShardIteratorCommand, { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: '100' })
        .resolves({ ShardIterator: 'after-100' });
      streams.on(GetRecordsCommand, { ShardIterator: 'after-100' }).resolves({ Records: [aRecord('200')], NextShardIterator: 'end' });
      streams.on(GetRecordsCommand, { ShardIterator: 'end' }).resolves({ Records: [], NextShardIterator: 'end' });
      // Act
      const handled = await recordsHandled(2);
      // Assess
      expect(handled).toEqual(['100', '200']);
    });

  it("starts again from the shard's oldest record when the one it handled last is trimmed too", async () => {
    // Prepare
    givenOneShard();
    streams.on(GetRecordsCommand, { ShardIterator: 'first' }).resolves({ Records: [aRecord('100')], NextShardIterator: 'lost' });
    streams.on(GetRecordsCommand, { ShardIterator: 'lost' }).rejects(new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));
    streams
      .on(GetShardIteratorCommand, { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' })
      .rejects(new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));
    streams.on(GetShardIteratorCommand, { ShardIteratorType: 'TRIM_HORIZON' }).resolves({ ShardIterator: 'oldest' });
    streams.on(GetRecordsCommand, { ShardIterator: 'oldest' }).resolves({ Records: [aRecord('300')], NextShardIterator: 'end' });
    streams.on(GetRecordsCommand, { ShardIterator: 'end' }).resolves({ Records: [], NextShardIterator: 'end' });
    // Act
    const handled = await recordsHandled(2);
    // Assess
    expect(handled).toEqual(['100', '300']);
  });
});
