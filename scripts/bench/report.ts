/** The benchmarks' common output: rows printed as markdown tables, and the statistics behind them. */
export type Row = Record<string, string | number>;

/** full: the figures the docs quote; smallest: each plan once at its least, so a test run proves it still runs. */
export type BenchSize = 'full' | 'smallest';

export function printTable(title: string, rows: Row[], notes: readonly string[] = []): void {
  const columns = Object.keys(rows[0] ?? {});
  console.log(`\n### ${title}\n`);
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${columns.map((column) => row[column]).join(' | ')} |`);
  if (notes.length) console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
}

/** Nearest-rank percentile (p in 0..100) of the samples. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

/** "3" when every call agreed, else "3–4". */
export function spread(values: readonly number[]): string | number {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? low : `${low}–${high}`;
}
