import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deviceEndpoints, handlerPath, operations, streamConsumers } from '../../shared/operations.ts';

const names = [...operations, ...streamConsumers, ...deviceEndpoints].map((entry) => entry.name);
const eventNames = readdirSync('events')
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.replace(/\.json$/, ''));

describe('the operation registry', () => {
  it('has a handler module for every entry and a functions/ folder for nothing else', () => {
    for (const name of names) expect(existsSync(handlerPath(name)), handlerPath(name)).toBe(true);
    expect(readdirSync('functions').sort()).toEqual([...names].sort());
  });

  it("keeps each operation's contract in a module of schemas only, which its handler and the OpenAPI document import", () => {
    for (const { name } of operations) {
      const imports = [...readFileSync(`functions/${name}/contract.ts`, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map(
        (match) => match[1],
      );
      // No store, middleware or provider: importing a contract reads no configuration and makes no client.
      for (const module of imports)
        expect(module, `functions/${name}/contract.ts`).toMatch(/^(valibot|\.\.\/\.\.\/shared\/(contracts|domain)\/.*)$/);
    }
  });

  it('has a sample event for every entry and for nothing else', () => {
    expect(eventNames.sort()).toEqual([...names].sort());
  });

  it('names each operation once, in camelCase, with a method that matches its access', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const operation of operations) {
      expect(operation.name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.method).toBe(operation.access === 'read' ? 'GET' : 'POST');
    }
  });
});
