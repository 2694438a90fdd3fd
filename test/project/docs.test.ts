import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withOperationsTable } from '../../scripts/docs.ts';

describe('README.md', () => {
  it('lists exactly the registry\'s operations (run `npm run docs` after changing the registry)', () => {
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
