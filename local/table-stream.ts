/**
 * The table's stream, read in this process, for `npm start` and the tests: DynamoDB Local keeps a stream as DynamoDB
 * does, so the webhook router is fed as Lambda's DynamoDB event source feeds it in AWS (every shard in order, a
 * batch's reported failure read again from that record on), whichever process wrote the event: the API, the device
 * entry points, the admin CLI's ingest and reprocess. Where a data folder is kept, the position read up to is saved
 * there after each batch, so a restarted npm start resumes where it stopped (the stream keeps 24 h).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

export interface TableStreamOptions {
  endpoint: string;
  tableName: string;
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined>;
  /** where the position read up to is kept; without it reading starts at the stream's end on every start */
  checkpointFile?: string;
  /** how long an empty shard is left before it is read again (Lambda's event source polls about four times a second) */
  idleMs?: number;
  /** the most records one batch hands the handler, as the event source's batch size */
  batchSize?: number;
  /** the records the handler is given, as the event source's filter criteria pick them; the others are passed over */
  filter?: (record: _Record) => boolean;
}

/** GetRecords' answers for an iterator whose place is gone: past its 15 minutes, or on records trimmed since. */
const LOST_POSITION_ERRORS = new Set(['ExpiredIteratorException', 'TrimmedDataAccessException']);

interface Checkpoint {
  streamArn: string;
  /** the last sequence number handled, per shard */
  shards: Record<string, string>;
}

const local = { region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

export async function startTableStream({
  endpoint,
  tableName,
  handler,
  checkpointFile,
  idleMs = 100,
  batchSize = 100,
  filter = () => true,
}: TableStreamOptions): Promise<{ stop(): Promise<void> }> {
  const dynamo = new DynamoDBClient({ endpoint, ...local });
  const streams = new DynamoDBStreamsClient({ endpoint, ...local });
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${tableName} has no stream`);

  const saved = checkpointFile && existsSync(checkpointFile) ? (JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint) : undefined;
  const checkpoint: Checkpoint = saved?.streamArn === streamArn ? saved : { streamArn, shards: {} };
  const firstStart = saved?.streamArn !== streamArn;
  const save = () => {
    if (checkpointFile) writeFileSync(checkpointFile, JSON.stringify(checkpoint));
  };

  let running = true;
  const readers = new Map<string, Promise<void>>();
  const sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          sleeps.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      sleeps.add(entry);
    });

  const iterator = async (shardId: string, type: ShardIteratorType, sequenceNumber?: string): Promise<string | undefined> =>
    (
      await streams.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequenceNumber }),
      )
    ).ShardIterator;

  /**
   * A new position after the last record handled, or from the shard's oldest record when that one is gone too: the
   * event source gets a fresh iterator the same way, and DynamoDB Local trims a busy shard under a reader's iterator.
   */
  const resumeShard = async (shardId: string): Promise<string | undefined> => {
    const done = checkpoint.shards[shardId];
    const after = done
      ? await iterator(shardId, 'AFTER_SEQUENCE_NUMBER', done).catch((error: Error) => {
          if (error.name !== 'TrimmedDataAccessException') throw error;
          return undefined;
        })
      : undefined;
    return after ?? iterator(shardId, 'TRIM_HORIZON');
  };

  const readShard = async (shardId: string, first: string | undefined): Promise<void> => {
    let next = first;
    while (running && next) {
      const read = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: batchSize })).catch(async (error: Error) => {
        if (!running || !LOST_POSITION_ERRORS.has(error.name)) throw error;
        return undefined;
      });
      if (!read) {
        next = await resumeShard(shardId);
        continue;
      }
      const { Records = [], NextShardIterator } = read;
      if (Records.length === 0) {
        next = NextShardIterator;
        if (next) await sleep(idleMs);
        continue;
      }
      const picked = Records.filter(filter);
      const response =
        picked.length === 0
          ? undefined
          : await handler({ Records: picked.map(lambdaRecord) }).catch(() => ({
              batchItemFailures: [{ itemIdentifier: picked[0]?.dynamodb?.SequenceNumber ?? '' }],
            }));
      const failedAt = response?.batchItemFailures?.[0]?.itemIdentifier;
      const failedIndex = failedAt === undefined ? Records.length : Records.findIndex((r) => r.dynamodb?.SequenceNumber === failedAt);
      const handled = Records.slice(0, Math.max(failedIndex, 0));
      const last = handled.at(-1)?.dynamodb?.SequenceNumber;
      if (last) {
        checkpoint.shards[shardId] = last;
        save();
      }
      if (failedAt === undefined) next = NextShardIterator;
      else {
        // as the event source does: the batch is read again from the record that failed, after a pause
        await sleep(1000);
        next = running ? await iterator(shardId, 'AT_SEQUENCE_NUMBER', failedAt) : undefined;
      }
    }
  };

  /** Starts a reader for every shard not yet read: where its checkpoint says, else its start (or the end, on a first start). */
  const discover = async (atStart: boolean): Promise<void> => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId as string;
      if (readers.has(shardId)) continue;
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      const done = checkpoint.shards[shardId];
      if (closed && (done === shard.SequenceNumberRange?.EndingSequenceNumber || (atStart && firstStart))) {
        readers.set(shardId, Promise.resolve());
        continue;
      }
      const start = done
        ? await iterator(shardId, 'AFTER_SEQUENCE_NUMBER', done)
        : await iterator(shardId, atStart && firstStart ? 'LATEST' : 'TRIM_HORIZON');
      readers.set(
        shardId,
        readShard(shardId, start).catch((error) => {
          if (running) console.error(`webhooks: reading the table's stream failed: ${error instanceof Error ? error.message : error}`);
        }),
      );
    }
  };

  await discover(true);
  // new shards appear as the stream rolls over: looked for every few seconds, read from their first record
  const discovery = setInterval(() => void discover(false).catch(() => undefined), 5000).unref();
  return {
    async stop() {
      running = false;
      clearInterval(discovery);
      for (const entry of sleeps) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      await Promise.allSettled([...readers.values()]);
      streams.destroy();
    },
  };
}

/** A GetRecords record in the shape Lambda's DynamoDB event source hands a function. */
function lambdaRecord(record: _Record): DynamoDBRecord {
  const { dynamodb } = record;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: 'local',
    dynamodb: {
      ...dynamodb,
      ApproximateCreationDateTime: dynamodb?.ApproximateCreationDateTime
        ? dynamodb.ApproximateCreationDateTime.getTime() / 1000
        : undefined,
    },
  } as DynamoDBRecord;
}
