import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

interface LockedPackage {
  optionalDependencies?: Record<string, string>;
}

const root = resolve(import.meta.dirname, '../..');
const locked: Record<string, LockedPackage> = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;

/** Where Node would find `dependency` from the package at `path`: its own node_modules, then each folder above. */
function resolvesFrom(path: string, dependency: string): boolean {
  let folder = path;
  for (;;) {
    if (locked[`${folder ? `${folder}/` : ''}node_modules/${dependency}`]) return true;
    if (!folder) return false;
    const parent = folder.lastIndexOf('/node_modules/');
    folder = parent < 0 ? '' : folder.slice(0, parent);
  }
}

describe('package-lock.json', () => {
  // npm ci refuses a lockfile that leaves out any platform's optional binary (Biome 2.6.8's were not all on the
  // registry, so CI failed before a test ran), and only a machine of another platform would otherwise notice.
  it('locks every optional dependency of every locked package, for every platform', () => {
    const unlocked = Object.entries(locked).flatMap(([path, meta]) =>
      Object.keys(meta.optionalDependencies ?? {})
        .filter((dependency) => !resolvesFrom(path, dependency))
        .map((dependency) => `${path} -> ${dependency}`),
    );
    expect(unlocked).toEqual([]);
  });

  it('is read with the packages that declare optional binaries', () => {
    expect(locked['node_modules/@biomejs/biome']?.optionalDependencies).toHaveProperty('@biomejs/cli-darwin-arm64');
    expect(locked['node_modules/esbuild']?.optionalDependencies).toHaveProperty('@esbuild/win32-x64');
  });
});
