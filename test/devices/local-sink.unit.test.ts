/** The local pipeline sink batches puts as the Kinesis event source does; the pipeline is passed in, so its outcome is chosen. */
import { describe, expect, it } from 'vitest';
import { KINESIS_MAX_RECORD_BYTES, PARTITION_KEY_MAX_CHARACTERS } from '../../shared/devices/kinesis-sink.ts';
import { localPipelineSink } from '../../shared/devices/local-sink.ts';
import type { PositionRecordInput } from '../../shared/domain/tracking/position.ts';
import type { RawRecord } from '../../shared/pipeline/process-positions.ts';
import { aBatchOutcome } from '../support/batch-outcome.ts';

const aPositionRecord = (imei: string, at: string): PositionRecordInput => ({ imei, gps_datetime: at, latitude: -26.2, longitude: 28.04 });

/** A pipeline that records its batches and fails the records of `failingImei`. */
const aPipeline = (failingImei?: string) => {
  const batches: RawRecord[][] = [];
  const process = async (records: readonly RawRecord[]) => {
    batches.push([...records]);
    const failed = records.filter((record) => JSON.parse(record.data).imei === failingImei).map((record) => record.id);
    return aBatchOutcome(records, { failedIds: failed });
  };
  return { batches, process };
};

describe('the local pipeline sink', () => {
  it('feeds the puts of one window to the pipeline as one batch', async () => {
    // Prepare
    const pipeline = aPipeline();
    const sink = localPipelineSink({ windowMs: 20, process: pipeline.process });
    // Act
    await Promise.all([
      sink.put([aPositionRecord('356000000000001', '2026-01-01T08:00:00Z')]),
      sink.put([aPositionRecord('356000000000002', '2026-01-01T08:00:00Z'), aPositionRecord('356000000000002', '2026-01-01T08:00:30Z')]),
    ]);
    // Assess
    expect(pipeline.batches).toHaveLength(1);
    expect(pipeline.batches[0]?.map((record) => JSON.parse(record.data).imei)).toEqual([
      '356000000000001',
      '356000000000002',
      '356000000000002',
    ]);
  });

  it('processes a full batch without waiting for the window', async () => {
    // Prepare
    const pipeline = aPipeline();
    const sink = localPipelineSink({ windowMs: 60_000, maxRecords: 2, process: pipeline.process });
    // Act
    await sink.put([
      aPositionRecord('356000000000001', '2026-01-01T08:00:00Z'),
      aPositionRecord('356000000000001', '2026-01-01T08:00:30Z'),
    ]);
    // Assess
    expect(pipeline.batches).toHaveLength(1);
  });

  it('rejects only the puts whose records the pipeline failed', async () => {
    // Prepare
    const pipeline = aPipeline('356000000000002');
    const sink = localPipelineSink({ windowMs: 20, process: pipeline.process });
    // Act
    const [healthy, failing] = await Promise.allSettled([
      sink.put([aPositionRecord('356000000000001', '2026-01-01T08:00:00Z')]),
      sink.put([aPositionRecord('356000000000002', '2026-01-01T08:00:00Z')]),
    ]);
    // Assess
    expect(healthy.status).toBe('fulfilled');
    expect(failing.status).toBe('rejected');
  });

  it('rejects every put of a batch the pipeline could not process', async () => {
    // Prepare
    const sink = localPipelineSink({
      windowMs: 20,
      process: async () => {
        throw new Error('archive unavailable');
      },
    });
    // Act
    const put = sink.put([aPositionRecord('356000000000001', '2026-01-01T08:00:00Z')]);
    // Assess
    await expect(put).rejects.toThrow('the local pipeline failed');
  });
});

describe("the local pipeline sink refuses what Kinesis's PutRecords refuses", () => {
  /** A record whose JSON and partition key (its IMEI) together are exactly `bytes` long. */
  const aRecordOfBytes = (bytes: number): PositionRecordInput => {
    const record = { ...aPositionRecord('356000000000001', '2026-01-01T08:00:00Z'), padding: '' };
    const base = JSON.stringify(record).length + String(record.imei).length;
    return { ...record, padding: 'x'.repeat(bytes - base) } as PositionRecordInput;
  };

  it('takes a record of exactly 1 MiB with its partition key, and refuses the whole put when one record is a byte over', async () => {
    // Prepare
    const pipeline = aPipeline();
    const sink = localPipelineSink({ windowMs: 5, process: pipeline.process });
    // Act
    const [atLimit, overLimit] = await Promise.allSettled([
      sink.put([aRecordOfBytes(KINESIS_MAX_RECORD_BYTES)]),
      sink.put([aPositionRecord('356000000000002', '2026-01-01T08:00:00Z'), aRecordOfBytes(KINESIS_MAX_RECORD_BYTES + 1)]),
    ]);
    // Assess
    expect(atLimit.status).toBe('fulfilled');
    expect(overLimit).toMatchObject({ status: 'rejected', reason: { message: '2 position records not accepted by the stream' } });
    expect(pipeline.batches.flat()).toHaveLength(1);
  });

  it('takes a partition key of 256 characters and refuses one of 257', async () => {
    // Prepare
    const pipeline = aPipeline();
    const sink = localPipelineSink({ windowMs: 5, process: pipeline.process });
    // Act
    const [atLimit, overLimit] = await Promise.allSettled([
      sink.put([aPositionRecord('7'.repeat(PARTITION_KEY_MAX_CHARACTERS), '2026-01-01T08:00:00Z')]),
      sink.put([aPositionRecord('7'.repeat(PARTITION_KEY_MAX_CHARACTERS + 1), '2026-01-01T08:00:00Z')]),
    ]);
    // Assess
    expect(atLimit.status).toBe('fulfilled');
    expect(overLimit).toMatchObject({ status: 'rejected', reason: { message: '1 position records not accepted by the stream' } });
  });

  it('refuses an empty partition key', async () => {
    // Prepare
    const pipeline = aPipeline();
    const sink = localPipelineSink({ windowMs: 5, process: pipeline.process });
    // Act
    const put = sink.put([aPositionRecord('', '2026-01-01T08:00:00Z')]);
    // Assess
    await expect(put).rejects.toThrow('1 position records not accepted by the stream');
    expect(pipeline.batches).toHaveLength(0);
  });
});
