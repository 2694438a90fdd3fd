import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const lineWidth: number = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')).formatter.lineWidth;
const trackedTypeScript = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

describe('the source', () => {
  it('is read from git and biome.json: tracked TypeScript files and a line width', () => {
    expect(trackedTypeScript).toContain('test/project/line-width.unit.test.ts');
    expect(lineWidth).toBeGreaterThan(0);
  });

  // Biome cannot break long strings and comments, so a line it leaves over the width stays unnoticed without this.
  it("keeps every line of every tracked TypeScript file within Biome's formatter.lineWidth", () => {
    const tooLong = trackedTypeScript.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => {
          const length = [...line].length;
          return length > lineWidth ? [`${file}:${index + 1}: ${length} characters`] : [];
        }),
    );
    expect(tooLong).toEqual([]);
  });
});
