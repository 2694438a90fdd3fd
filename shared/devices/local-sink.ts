/**
 * The local pipeline as a PositionSink, for `npm start` and the tests: records are gathered for a short window
 * (or until a batch is full) and fed to processPositions in one batch, as the Kinesis event source does in AWS. A
 * put resolves once its records are committed, and rejects when the batch failed them, so the device resends.
 */
import { processPositions, type RawRecord } from '../pipeline/process-positions.ts';
import { kinesisEntryRefusal, RecordsNotAccepted, toEntry } from './kinesis-sink.ts';
import type { PositionSink } from './position-sink.ts';

export interface LocalSinkOptions {
  /** how long the first record of a batch waits for others */
  windowMs?: number;
  /** a batch this large is processed at once */
  maxRecords?: number;
  process?: typeof processPositions;
}

interface Waiting {
  ids: string[];
  resolve: () => void;
  reject: (error: Error) => void;
}

export function localPipelineSink({ windowMs = 200, maxRecords = 1000, process = processPositions }: LocalSinkOptions = {}): PositionSink {
  let records: RawRecord[] = [];
  let waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;
  let sequence = 0;

  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const [batch, callers] = [records, waiting];
    [records, waiting] = [[], []];
    try {
      const { failedIds } = await process(batch, { batchName: `devices-${Date.now()}-${batch[0]?.id}` });
      const failed = new Set(failedIds);
      for (const caller of callers) {
        const notCommitted = caller.ids.filter((id) => failed.has(id)).length;
        if (notCommitted === 0) caller.resolve();
        else caller.reject(new Error(`${notCommitted} position records failed in the local pipeline`));
      }
    } catch (error) {
      for (const caller of callers) caller.reject(new Error('the local pipeline failed', { cause: error }));
    }
  };

  return {
    put(input) {
      if (input.length === 0) return Promise.resolve();
      // What the stream would refuse is refused here too, the way the Kinesis sink reports it: nothing of the put is taken.
      const refusal = input.map(toEntry).map(kinesisEntryRefusal).find(Boolean);
      if (refusal) return Promise.reject(new RecordsNotAccepted(input.length, { cause: new Error(`Kinesis would refuse a ${refusal}`) }));
      return new Promise<void>((resolve, reject) => {
        const ids = input.map(() => String(sequence++));
        records.push(...input.map((record, index) => ({ id: ids[index] as string, data: JSON.stringify(record) })));
        waiting.push({ ids, resolve, reject });
        if (records.length >= maxRecords) void flush();
        else timer ??= setTimeout(() => void flush(), windowMs);
      });
    },
  };
}
