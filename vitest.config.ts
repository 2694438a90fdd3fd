import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { defineConfig } from 'vitest/config';
import UnitFirstSequencer from './test/support/unit-first-sequencer.ts';

/**
 * The run's temporary files in one folder of its own, gone when the run ends: every synthesized assembly (a
 * stack's is 30 MB), the local stack's folders and the browser's profiles. The workers and the local stack's
 * processes inherit TMPDIR, so nothing a run writes outlives it, whatever a test forgets to remove.
 */
function giveTheRunItsTemporaryFolder(): void {
  const prefix = 'fleet-test-run-';
  if (basename(tmpdir()).startsWith(prefix)) return; // the config loaded again, in the same run
  const folder = mkdtempSync(join(tmpdir(), prefix));
  process.env.TMPDIR = folder;
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
}
giveTheRunItsTemporaryFolder();

/**
 * Four projects, chosen by folder and by the kind a file's name says (docs/testing.md):
 * - `unit` (`npm run test:unit`, no Java, no database, no network beyond fake servers on 127.0.0.1): the folders
 *   whose every test is pure (test/domain, test/infra's CDK templates) and, in the folders that mix
 *   both kinds, the files named `*.unit.test.ts`. It never waits for the local stack.
 * - `integration`: every other test file, a new folder's included. Its global setup starts DynamoDB Local,
 *   s3rver and the API emulator once, and its files run in parallel, each owning its data (its own users,
 *   keys and vehicles; a file delivering webhooks has a table of its own, test/support/webhooks.ts).
 *   The files of a worker share its process and modules (`isolate: false`, as `unit`): a quarter of the run's CPU
 *   went to loading them again for every file. Each file leaves the environment and the enforced IAM policies as
 *   it found them (test/support/setup.ts).
 * - `own-process`: files that need modules made under their own settings (Powertools reads its log level and
 *   metrics switch when its logger is made): named `*.own-process.test.ts`, each in a fresh process, beside the rest.
 * - `whole-table`: files that act on the whole table, not only their own data (they run the quiet-vehicles check
 *   over every vehicle due), or that load the machine by design (a thousand hanging deliveries): named
 *   `*.whole-table.test.ts`, run one at a time after the parallel files, on the same stack.
 */
const unit = ['test/{domain,infra}/**/*.test.ts', 'test/**/*.unit.test.ts'];
const wholeTable = ['test/**/*.whole-table.test.ts'];
const ownProcess = ['test/**/*.own-process.test.ts'];
/** The run's local stack and the worker's settings for it. */
const localStack = { globalSetup: ['test/support/global-setup.ts'], setupFiles: ['test/support/setup.ts'] };

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One worker per core: the local stack's AWS clients wait longer than a function's 1.5 s (test/support/global-setup.ts).
    maxWorkers: 2,
    sequence: { sequencer: UnitFirstSequencer },
    projects: [
      { extends: true, test: { name: 'unit', isolate: false, include: unit, setupFiles: ['test/support/unit-setup.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: [...unit, ...wholeTable, ...ownProcess],
          ...localStack,
        },
      },
      { extends: true, test: { name: 'own-process', include: ownProcess, ...localStack } },
      { extends: true, test: { name: 'whole-table', include: wholeTable, fileParallelism: false, maxWorkers: 1, ...localStack } },
    ],
  },
});
