import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations } from '../../functions/registry.ts';
import { openApiDocument } from '../../shared/openapi.ts';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

/** field name → the JSON types (null aside) it has in any success response, from the OpenAPI document the service serves. */
function responseFieldTypes(): Map<string, Set<string>> {
  const document = openApiDocument(operations) as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
    components: { schemas: Record<string, Schema> };
  };
  const types = new Map<string, Set<string>>();
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop() as string] as Schema) : schema;
  const typesOf = (schema: Schema): string[] => {
    const resolved = resolve(schema);
    const own = [resolved.type ?? []].flat().filter((type) => type !== 'null');
    return [...own, ...[...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])].flatMap(typesOf)];
  };
  const walk = (schema: Schema, seen: Set<Schema>) => {
    const resolved = resolve(schema);
    if (seen.has(resolved)) return;
    seen.add(resolved);
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      for (const type of typesOf(property).filter((type) => type !== 'object' && type !== 'array')) {
        types.set(name, (types.get(name) ?? new Set()).add(type));
      }
      walk(property, seen);
    }
    if (resolved.items) walk(resolved.items, seen);
    for (const part of [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) walk(part, seen);
  };
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      const schema = operation.responses['200']?.content?.['application/json']?.schema;
      if (schema) walk(schema, new Set());
    }
  }
  return types;
}

describe('docs/response-types.md', () => {
  it('lists every response field whose JSON type differs between operations', () => {
    // Prepare
    const table = readFileSync('docs/response-types.md', 'utf8');
    const listed = new Set(
      [...table.matchAll(/^\| ([^|]+)\|/gm)].flatMap((row) => [...(row[1] as string).matchAll(/`(\w+)`/g)].map((name) => name[1])),
    );
    // Act
    const differing = [...responseFieldTypes()].filter(([, types]) => types.size > 1).map(([name]) => name);
    // Assess
    expect(differing).toContain('vehicle_uid');
    expect(differing.filter((name) => !listed.has(name))).toEqual([]);
  });
});
