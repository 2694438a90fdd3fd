/**
 * Every plan of `npm run bench` once, at its smallest size (--smallest), as a child process the way a developer runs
 * it, on a local stack of its own: a bench broken by a change (a renamed operation, a plan whose calls now fail, a
 * middleware added twice) fails here instead of on the day someone needs its figures. The figures are not checked.
 * It runs after the other files, alone (a whole-table file for its load: docs/testing.md), not beside the console's
 * browser tests.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** The plans the script offers, from its usage line: `npm run bench -- [operations] [bundles] … [--smallest] [--out FILE]`. */
async function planNames(): Promise<string[]> {
  const { stdout } = await run(process.execPath, ['scripts/bench.ts', '--help']);
  const usage = stdout.split('\n').find((line) => line.startsWith('npm run bench --')) ?? '';
  return [...usage.matchAll(/\[([a-z][a-z-]*)\]/g)].map((match) => match[1] as string);
}

/** One `npm run bench -- <plans> --smallest --out FILE`: its exit code and standard error. */
const smallestRun = (names: readonly string[], out: string) =>
  run(process.execPath, ['scripts/bench.ts', ...names, '--smallest', '--out', out], { maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );

describe('npm run bench -- --smallest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-benches-'));
  const out = join(dir, 'benches.json');
  let plans: string[];
  let outcome: { code: number; stderr: string };

  // Two calls, so both stacks the script starts are run: the webhooks plan's delivers from the table's stream, the
  // others' has no stream and delivers what operations queue (scripts/bench.ts, withLocalStack).
  beforeAll(async () => {
    plans = await planNames();
    const outs = [join(dir, 'delivering.json'), join(dir, 'queueing.json')];
    const outcomes = [
      await smallestRun(['webhooks'], outs[0] as string),
      await smallestRun(
        plans.filter((plan) => plan !== 'webhooks'),
        outs[1] as string,
      ),
    ];
    outcome = outcomes.find((each) => each.code !== 0) ?? { code: 0, stderr: '' };
    if (outcome.code === 0) {
      const merged = Object.assign({}, ...outs.map((file) => JSON.parse(readFileSync(file, 'utf8')) as object));
      writeFileSync(out, JSON.stringify(merged));
    }
  }, 900_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('offers the plans a developer reads about in scripts/bench.ts', () => {
    expect(plans).toEqual(expect.arrayContaining(['operations', 'bundles', 'cost', 'device-cost', 'devices', 'webhooks', 'events']));
  });

  it('runs every plan to its end and exits 0', () => {
    expect(outcome.code, outcome.stderr.split('\n').slice(-20).join('\n')).toBe(0);
  });

  it('gives every plan a table with rows', () => {
    const results = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown[]>;
    expect(Object.keys(results).sort()).toEqual([...plans].sort());
    for (const plan of plans) expect(results[plan]?.length, plan).toBeGreaterThan(0);
  });

  it("measures every operation, webhooks and a signed-in person's keys and device tokens included", async () => {
    const { operations } = await import('../../functions/registry.ts');
    const results = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Array<{ operation?: string }>>;
    expect(results.operations?.map((row) => row.operation)).toEqual(operations.map(({ name }) => name));
  });

  it("times writing every JSON answer, and no picture's", () => {
    const results = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Array<Record<string, unknown>>>;
    const writingMs = new Map(results.operations?.map((row) => [row.operation, row['answer JSON + gzip ms']]));
    expect(writingMs.get('getLiveMap')).toBe(0);
    expect(writingMs.get('getPositions')).toBeGreaterThan(0);
    expect([...writingMs.values()].every((ms) => typeof ms === 'number' && ms >= 0)).toBe(true);
  });

  it("answers the first real call of an api key's operation and of a signed-in person's in the bundles bench", async () => {
    const { operations } = await import('../../functions/registry.ts');
    const results = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Array<Record<string, unknown>>>;
    const answered = (operation: (typeof operations)[number]) =>
      results.bundles?.find((row) => row.function === operation.name)?.['real status'] === '200';
    expect(operations.filter((operation) => !('personOnly' in operation)).some(answered)).toBe(true);
    expect(operations.filter((operation) => 'personOnly' in operation).some(answered)).toBe(true);
  });

  it("sends testWebhook's POST again with its DynamoDB requests, so its SDK column holds every request it makes", () => {
    const results = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Array<Record<string, unknown>>>;
    const posts = new Map(results.operations?.map((row) => [row.operation, row['webhook POSTs/call']]));
    expect(posts.get('testWebhook')).toBe(1);
    expect(posts.get('getWebhook')).toBe(0);
  });
});
