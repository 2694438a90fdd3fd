/**
 * The positions stream as a PositionSink: PutRecords partitioned by IMEI, in batches within Kinesis's limits. A record
 * PutRecords reports failed (throttled, an internal error) is put again a bounded number of times; if any is still
 * not taken the put rejects, so the device is not acknowledged and resends (the pipeline keeps a point once per GPS
 * time, so the records of the same request that were taken do no harm when they come again).
 */
import { KinesisClient, PutRecordsCommand, type PutRecordsRequestEntry } from '@aws-sdk/client-kinesis';
import { awsClientTimeouts, config } from '../config.ts';
import { tracer } from '../telemetry.ts';
import type { PositionSink, SinkRecord } from './position-sink.ts';

/** PutRecords takes at most 500 records and 5 MiB (data and partition keys) per call. */
export const PUT_RECORDS_MAX_RECORDS = 500;
export const PUT_RECORDS_MAX_BYTES = 5 * 1024 * 1024;
/**
 * One record's data and partition key together may be 1 MiB (a stream's default maximum record size), and a partition
 * key is 1 to 256 Unicode characters (Kinesis API reference, PutRecords and PutRecordsRequestEntry). Past either
 * the whole call fails with a ValidationException.
 */
export const KINESIS_MAX_RECORD_BYTES = 1024 * 1024;
export const PARTITION_KEY_MAX_CHARACTERS = 256;

export interface KinesisSinkOptions {
  client: KinesisClient;
  streamName: string;
  /** PutRecords calls per batch, the first included, before the records still failing are given up */
  attempts?: number;
  /** the wait before the second call; doubled for each further one */
  backoffMs?: number;
}

/** The records some PutRecords calls did not take: the caller answers 503 and the device keeps them. */
export class RecordsNotAccepted extends Error {
  readonly failed: number;

  constructor(failed: number, options?: ErrorOptions) {
    super(`${failed} position records not accepted by the stream`, options);
    this.name = 'RecordsNotAccepted';
    this.failed = failed;
  }
}

export function kinesisSink({ client, streamName, attempts = 3, backoffMs = 50 }: KinesisSinkOptions): PositionSink {
  const putBatch = async (entries: PutRecordsRequestEntry[]): Promise<void> => {
    let pending = entries;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > attempts) throw new RecordsNotAccepted(pending.length);
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 2)));
      const { FailedRecordCount, Records = [] } = await client.send(new PutRecordsCommand({ StreamName: streamName, Records: pending }));
      if (!FailedRecordCount) return;
      // The answer lists one result per entry, in order; an ErrorCode marks one not taken.
      pending = pending.filter((_, index) => Records[index]?.ErrorCode !== undefined);
    }
  };
  return {
    async put(records) {
      try {
        await Promise.all(batches(records.map(toEntry)).map(putBatch));
      } catch (error) {
        throw error instanceof RecordsNotAccepted ? error : new RecordsNotAccepted(records.length, { cause: error });
      }
    },
  };
}

const encoder = new TextEncoder();

export function toEntry(record: SinkRecord): PutRecordsRequestEntry {
  return { PartitionKey: String(record.imei), Data: encoder.encode(JSON.stringify(record)) };
}

const entryBytes = (entry: PutRecordsRequestEntry): number => (entry.Data?.length ?? 0) + encoder.encode(entry.PartitionKey).length;

/** Why Kinesis would refuse a PutRecords call holding this entry, or undefined when it takes it. */
export function kinesisEntryRefusal(entry: PutRecordsRequestEntry): string | undefined {
  const keyCharacters = [...(entry.PartitionKey ?? '')].length;
  if (keyCharacters < 1 || keyCharacters > PARTITION_KEY_MAX_CHARACTERS) {
    return `partition key of ${keyCharacters} characters, not 1 to ${PARTITION_KEY_MAX_CHARACTERS}`;
  }
  const bytes = entryBytes(entry);
  if (bytes > KINESIS_MAX_RECORD_BYTES) return `record of ${bytes} bytes with its partition key, over ${KINESIS_MAX_RECORD_BYTES}`;
  return undefined;
}

/** Consecutive groups of at most 500 entries and 5 MiB each. */
export function batches(entries: readonly PutRecordsRequestEntry[]): PutRecordsRequestEntry[][] {
  const groups: PutRecordsRequestEntry[][] = [];
  let size = 0;
  for (const entry of entries) {
    const bytes = entryBytes(entry);
    const last = groups.at(-1);
    if (last && last.length < PUT_RECORDS_MAX_RECORDS && size + bytes <= PUT_RECORDS_MAX_BYTES) {
      last.push(entry);
      size += bytes;
    } else {
      groups.push([entry]);
      size = bytes;
    }
  }
  return groups;
}

let client: KinesisClient | undefined;

/** Created on first use; KINESIS_ENDPOINT points it elsewhere (a test's closed port: a stream that is down). */
export function kinesisClient(): KinesisClient {
  if (!client) {
    const endpoint = config.kinesisEndpoint();
    client = new KinesisClient({
      ...awsClientTimeouts(),
      ...(endpoint ? { endpoint, region: config.region('local'), credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    });
    tracer.captureAWSv3Client(client);
  }
  return client;
}
