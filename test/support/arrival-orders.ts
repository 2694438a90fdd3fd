/**
 * The orders positions really arrive in (issue 12): devices that buffer, send newest first, retry; Kinesis that
 * redelivers. Each turns one stream of records into the batches the pipeline is given.
 */
import { prng } from '../../simulator/index.ts';

export interface Timed {
  gps_datetime: string;
}

export interface Batch<Record> {
  name: string;
  records: Record[];
}

const chunked = <Record>(records: readonly Record[], size: number): Record[][] =>
  Array.from({ length: Math.ceil(records.length / size) }, (_, n) => records.slice(n * size, (n + 1) * size));

const named = <Record>(label: string, chunks: Record[][]): Array<Batch<Record>> =>
  chunks.map((records, n) => ({ name: `${label}-${n}`, records }));

export const arrivalOrders = {
  inOrder: <Record extends Timed>(records: readonly Record[], size: number) => named('in-order', chunked(records, size)),

  /** newest chunk first, each newest point first (Traccar Client empties its buffer this way) */
  reversedPerChunk: <Record extends Timed>(records: readonly Record[], size: number) =>
    named(
      'reversed',
      chunked(records, size)
        .reverse()
        .map((chunk) => [...chunk].reverse()),
    ),

  /** the points of `hours` from `from` (a dead zone) arrive after everything else */
  lateStretch: <Record extends Timed>(records: readonly Record[], size: number, from: string, hours = 2) => {
    const to = new Date(Date.parse(from) + hours * 3_600_000).toISOString();
    const inStretch = (record: Record) => record.gps_datetime >= from && record.gps_datetime < to;
    return named('late-stretch', [
      ...chunked(
        records.filter((record) => !inStretch(record)),
        size,
      ),
      ...chunked(records.filter(inStretch), size),
    ]);
  },

  shuffled: <Record extends Timed>(records: readonly Record[], size: number, seed: number) => {
    const random = prng(seed);
    const mixed = [...records];
    for (let i = mixed.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [mixed[i], mixed[j]] = [mixed[j] as Record, mixed[i] as Record];
    }
    return named('shuffled', chunked(mixed, size));
  },

  /** every batch delivered twice under its own name (a Lambda retry), then the whole stream again (a redelivery) */
  replayed: <Record extends Timed>(records: readonly Record[], size: number) => {
    const batches = named('replayed', chunked(records, size));
    return [...batches.flatMap((batch) => [batch, batch]), ...named('redelivered', chunked(records, size * 3))];
  },
};
