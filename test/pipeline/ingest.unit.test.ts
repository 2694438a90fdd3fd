/**
 * npm run ingest and the demo seed (shared/pipeline/ingest.ts) hand batches over as the Kinesis event source does: a
 * batch that throws comes again whole, a partial failure again with its failed records, until the attempts run out.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ingestRecords } from '../../shared/pipeline/ingest.ts';
import { type BatchOutcome, processPositions, type RawRecord } from '../../shared/pipeline/process-positions.ts';
import { aBatchOutcome } from '../support/batch-outcome.ts';
import { timedOut } from '../support/dynamodb-faults.ts';
import { FakeClock } from '../support/fake-clock.ts';

vi.mock('../../shared/pipeline/process-positions.ts', () => ({ processPositions: vi.fn() }));
const processed = vi.mocked(processPositions);

const lines = (count: number) => Array.from({ length: count }, (_, n) => JSON.stringify({ imei: `35630704244${n}`, n }));

/** What processPositions answers for these records: every one taken but `failed`. */
const outcomeOf = (records: readonly RawRecord[], failed: string[] = []): BatchOutcome =>
  aBatchOutcome(records, { imeis: ['356307042440'], trips: 1, failedIds: failed, writeRequests: records.length });

beforeEach(() => {
  processed.mockReset();
});

describe('ingestRecords', () => {
  it('delivers a batch that threw again whole, under the same name', async () => {
    // Prepare
    processed.mockRejectedValueOnce(timedOut()).mockImplementation(async (records) => outcomeOf(records));
    // Act
    const totals = await ingestRecords(lines(3), 'seed', new FakeClock());
    // Assess
    expect(processed.mock.calls.map(([records, { batchName }]) => [records.length, batchName])).toEqual([
      [3, 'seed-000000'],
      [3, 'seed-000000'],
    ]);
    expect(totals).toMatchObject({ records: 3, trips: 1, writeRequests: 3 });
  });

  it("delivers a partial failure's failed records again, and counts the batch's records once and each attempt's finds", async () => {
    // Prepare
    processed
      .mockImplementationOnce(async (records) => outcomeOf(records, ['2', '3']))
      .mockImplementation(async (records) => outcomeOf(records));
    // Act
    const totals = await ingestRecords(lines(3), 'seed', new FakeClock());
    // Assess
    expect(processed.mock.calls[1]?.[0].map((record) => record.id)).toEqual(['2', '3']);
    expect(processed.mock.calls[1]?.[1].batchName).toBe('seed-000000-retry-1');
    expect(totals).toMatchObject({ records: 3, trips: 2, writeRequests: 5 });
  });

  it('gives up after six attempts with the last error, waiting half a second longer before each retry', async () => {
    // Prepare
    processed.mockRejectedValue(timedOut());
    const clock = new FakeClock();
    // Act
    const ingesting = ingestRecords(lines(2), 'seed', clock);
    // Assess
    await expect(ingesting).rejects.toThrow('requestTimeout');
    expect(processed).toHaveBeenCalledTimes(6);
    expect(clock.sleeps).toEqual([500, 1000, 1500, 2000, 2500]);
  });

  it('gives up on records still failing after six attempts, naming how many', async () => {
    // Prepare
    processed.mockImplementation(async (records) => outcomeOf(records, ['1']));
    const clock = new FakeClock();
    // Act
    const ingesting = ingestRecords(lines(2), 'seed', clock);
    // Assess
    await expect(ingesting).rejects.toThrow('1 records failed to process');
    expect(processed).toHaveBeenCalledTimes(6);
    expect(clock.sleeps).toEqual([500, 1000, 1500, 2000, 2500]);
  });
});
