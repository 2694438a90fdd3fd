/**
 * Adding an operation is one folder and one registry line (docs/adding-an-operation.md): these cases fail, naming
 * the operation, when one of the steps is missing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deviceEndpoints, handlerPath, operations, scheduledFunctions, streamConsumers } from '../../functions/registry.ts';

const folders = readdirSync('functions').filter((entry) => statSync(`functions/${entry}`).isDirectory());
/** The entries whose folder holds a declaration (contract.ts) its handler imports: all but the stream consumer and scheduled functions. */
const declared = [...operations, ...deviceEndpoints];
const names = [...declared, ...streamConsumers, ...scheduledFunctions].map((entry) => entry.name);
const eventNames = readdirSync('events')
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.replace(/\.json$/, ''));
const importsOf = (path: string): string[] =>
  [...readFileSync(path, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1] as string);

describe('the operation registry', () => {
  // a folder is an operation, a device entry point, a stream consumer or a scheduled function
  it('lists every folder of functions/, each once, and nothing else', () => {
    expect(new Set(names).size).toBe(names.length);
    expect([...folders].sort()).toEqual([...names].sort());
  });

  it('collects each folder’s own declaration, named as its folder, in camelCase', async () => {
    for (const entry of declared) {
      const { contract } = (await import(`../../functions/${entry.name}/contract.ts`)) as { contract: unknown };
      expect(contract, `functions/${entry.name}/contract.ts`).toBe(entry);
      expect(entry.name).toMatch(/^[a-z][A-Za-z]+$/);
    }
  });

  it('has a handler for every entry, which imports its own declaration and no other operation’s', () => {
    for (const name of names) {
      expect(existsSync(handlerPath(name)), handlerPath(name)).toBe(true);
      const imports = importsOf(handlerPath(name));
      if (declared.some((entry) => entry.name === name)) expect(imports, handlerPath(name)).toContain('./contract.ts');
      for (const module of imports) expect(module, handlerPath(name)).not.toMatch(/^\.\.\/(?!\.\.\/)/);
    }
  });

  it('keeps each declaration in a module of schemas only, which its handler (and the OpenAPI document) imports', () => {
    for (const { name } of declared) {
      // No store, middleware or provider: importing a declaration reads no configuration and makes no client.
      for (const module of importsOf(`functions/${name}/contract.ts`))
        expect(module, `functions/${name}/contract.ts`).toMatch(/^(valibot|\.\.\/\.\.\/shared\/((contracts|domain)\/.*|errors\.ts))$/);
    }
  });

  it('has a sample event for every entry and for nothing else', () => {
    expect(eventNames.sort()).toEqual([...names].sort());
  });

  it('has a test file of its own for every operation, and a line in the README table', () => {
    const readme = readFileSync('README.md', 'utf8');
    for (const { name } of operations) {
      // a file that acts on the whole table runs apart, as *.whole-table.test.ts (docs/testing.md)
      const own = [`test/operations/${name}.test.ts`, `test/operations/${name}.whole-table.test.ts`];
      expect(
        own.some((file) => existsSync(file)),
        own.join(' or '),
      ).toBe(true);
      expect(readme, `README.md (npm run docs)`).toContain(`| \`${name}\` |`);
    }
  });

  it('gives every device entry point a test file of its own and resources outside /api/ that no other entry point serves', () => {
    const resources = deviceEndpoints.flatMap((endpoint) => endpoint.resources);
    expect(new Set(resources).size).toBe(resources.length);
    for (const { name, resources: own } of deviceEndpoints) {
      expect(existsSync(`test/devices/${name}.test.ts`), `test/devices/${name}.test.ts`).toBe(true);
      for (const resource of own) expect(resource, name).toMatch(/^\/devices\/[a-z]+(\/\{token\})?$/);
    }
  });
});
