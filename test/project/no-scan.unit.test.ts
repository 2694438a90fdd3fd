import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('the source', () => {
  it('never scans the table: every access is a GetItem, Query, BatchGetItem or transaction', () => {
    const offenders = ['functions', 'shared', 'infra', 'local', 'scripts']
      .flatMap(sourceFiles)
      .filter((file) => /\bScanCommand\b|\.scan\(/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
