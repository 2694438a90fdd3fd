import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { withOperationsTable, withPayloadTable } from '../../scripts/docs.ts';
import { anImei, givenUser } from '../support/builders.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The command lines of a document's ```sh blocks, continuation lines joined, comment-only lines dropped. */
function documentedCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

/**
 * Commands that install, start servers, deploy, take minutes, rewrite tracked files or work on a deployed table
 * (`--table <TableName>`) are read, not run.
 */
const notRunHere = /^(npm (install|ci|start|test)\b|npm run (deploy|bench|fuzz|docs|typecheck|synth)\b|npx cdk\b|aws\s)|--table </;

describe('README.md', () => {
  it("lists exactly the registry's operations (run `npm run docs` after changing the registry)", () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toBe(withOperationsTable(readme));
  });

  it('shows the two commands a newcomer needs', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain('npm install');
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });
});

describe('docs/events.md', () => {
  it('holds the payload table of the event contracts (run `npm run docs` after changing shared/contracts/events.ts)', () => {
    const page = readFileSync('docs/events.md', 'utf8');
    expect(page).toBe(withPayloadTable(page));
  });
});

describe("the documents' references", () => {
  it.each(documents)('in %s link only to files that are in the repository', (document) => {
    // Prepare
    const text = readFileSync(join(root, document), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1] as string)
      .filter((target) => !/^[a-z]+:/.test(target));
    // Act
    const missing = targets.filter((target) => !existsSync(resolve(root, dirname(document), target)));
    // Assess
    expect(missing).toEqual([]);
  });

  it.each(documents)('in %s name only test files and source files that exist', (document) => {
    // Prepare
    const text = readFileSync(join(root, document), 'utf8');
    const paths = [...text.matchAll(/`((?:test|shared|infra|local|scripts|functions)\/[\w./-]+\.ts)`/g)].map((match) => match[1] as string);
    // Act
    const missing = paths.filter((path) => !existsSync(join(root, path)));
    // Assess
    expect(missing).toEqual([]);
  });
});

describe('every documented command', () => {
  const workDirs: string[] = [];
  afterAll(() => {
    for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
  });

  it.each(documents)('in %s runs through npm scripts, never `node scripts/…` (which needs Node 24 on the machine)', (document) => {
    const text = readFileSync(join(root, document), 'utf8');
    expect(text).not.toMatch(/`node scripts\/|^node scripts\//m);
    // npm passes a second `--` on to the script: one `--` before all the options is the documented form
    expect(text).not.toMatch(/npm run \S+ \[?-- [^`\n]*\[?-- /);
  });

  it.each(documents.filter((document) => documentedCommands(readFileSync(join(root, document), 'utf8')).length > 0))(
    'in %s works when copied in order, from another folder, against a running stack',
    async (document) => {
      // Prepare: a folder of the user's own holding the demo key, as npm start leaves it in .local
      const commands = documentedCommands(readFileSync(join(root, document), 'utf8')).filter((line) => !notRunHere.test(line));
      const user = await givenUser();
      const workDir = mkdtempSync(join(tmpdir(), 'fleet-docs-'));
      workDirs.push(workDir);
      mkdirSync(join(workDir, '.local'));
      // IMEIs of its own, so the documented `npm run simulate` never feeds another test's vehicles
      writeFileSync(
        join(workDir, '.local', 'demo.json'),
        JSON.stringify({ apiKey: user.key, imeis: await Promise.all([anImei(), anImei(), anImei()]) }),
      );
      const script = [
        'set -euo pipefail',
        // the project's npm scripts, run from the user's folder (npm runs them at the package root)
        `npm() { command npm --prefix ${JSON.stringify(root)} "$@"; }`,
        `BASE=${inject('apiUrl')}`,
        `KEY=${user.key}`,
        ...commands.map((line) => line.replaceAll('http://127.0.0.1:3000', inject('apiUrl'))),
      ].join('\n');
      // Act
      const result = await run('bash', ['-c', script], {
        cwd: workDir,
        env: { ...process.env, LOCAL_DATA_DIR: join(workDir, '.local'), API_KEY: user.key },
        timeout: 120_000,
      }).catch((error: { code: number; stdout: string; stderr: string }) => error);
      // Assess
      expect('code' in result ? result : { code: 0 }, `${document}:\n${script}\n${result.stdout}\n${result.stderr}`).toMatchObject({
        code: 0,
      });
      expect(result.stdout).not.toMatch(/"result":\s*"error"/);
    },
    180_000,
  );
});
