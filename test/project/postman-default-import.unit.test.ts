/**
 * The document as Postman imports it with its default options (openapi-to-postmanv2, "Parameter generation:
 * Schema"): the converter reads no `example`, only `default`, `enum` and `pattern`, and fills anything else with a
 * `<type>` placeholder. Every value of every request must be a real one (docs/decisions.md). Offline: no server.
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../../functions/registry.ts';
import { postmanCollection } from '../../scripts/postman.ts';
import { openApiDocument } from '../../shared/openapi.ts';

interface KeyValue {
  key: string;
  value: string;
}

interface PostmanRequest {
  url: { path: string[]; query?: KeyValue[]; variable?: KeyValue[] };
  header?: KeyValue[];
  body?: { mode: string; raw?: string; urlencoded?: KeyValue[] };
}

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: PostmanRequest;
}

const PLACEHOLDER = /^<[a-z][a-z0-9-]*>$/;

const requestsOf = (items: readonly PostmanItem[]): PostmanRequest[] =>
  items.flatMap((item) => (item.item ? requestsOf(item.item) : item.request ? [item.request] : []));

/** Every value the request sends, named by where it goes: query, header, path, form field or a JSON body's path. */
function valuesOf(request: PostmanRequest): [string, unknown][] {
  const named = (where: string, list: KeyValue[] = []) => list.map(({ key, value }): [string, unknown] => [`${where} ${key}`, value]);
  const json = request.body?.mode === 'raw' && request.body.raw ? leavesOf('body', JSON.parse(request.body.raw)) : [];
  return [
    ...named('query', request.url.query),
    ...named('header', request.header),
    ...named('path', request.url.variable),
    ...named('form', request.body?.urlencoded),
    ...json,
  ];
}

function leavesOf(path: string, value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leavesOf(`${path}[${index}]`, item));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => leavesOf(`${path}.${key}`, item));
  return [[path, value]];
}

describe("Postman's import with default options", () => {
  it('gives every request of every operation a real value everywhere: no <type> placeholder', async () => {
    // Prepare
    const document = openApiDocument(operations);
    // Act
    const collection = await postmanCollection(document, {});
    // Assess
    const requests = requestsOf(collection.item as PostmanItem[]);
    expect(requests.map(({ url }) => url.path.at(-1)).sort()).toEqual(operations.map(({ name }) => name).sort());
    const placeholders = requests.flatMap((request) =>
      valuesOf(request)
        .filter(([, value]) => typeof value === 'string' && PLACEHOLDER.test(value))
        .map(([where, value]) => `${request.url.path.at(-1)} ${where}: ${value}`),
    );
    expect(placeholders).toEqual([]);
  });

  it('sends every required parameter and body field as its example', async () => {
    // Prepare
    const document = openApiDocument(operations);
    // Act
    const collection = await postmanCollection(document, {});
    // Assess
    const getPositions = requestsOf(collection.item as PostmanItem[]).find(({ url }) => url.path.at(-1) === 'getPositions');
    const addExpenseSlip = requestsOf(collection.item as PostmanItem[]).find(({ url }) => url.path.at(-1) === 'addExpenseSlip');
    const query = Object.fromEntries((getPositions?.url.query ?? []).map(({ key, value }) => [key, value]));
    expect(query).toMatchObject({ vehicle_uid: '1', start_datetime: '2026-11-22 06:30:00', end_datetime: '2026-11-22 06:31:00' });
    // An optional parameter with a default the service applies is sent as that default.
    expect(query.limit).toBe('10000');
    expect(JSON.parse(addExpenseSlip?.body?.raw ?? '{}')).toMatchObject({
      vehicle_uid: '1',
      type: '3',
      amount: '61.00',
      event_datetime: '2026-11-22 16:40:00',
    });
  });
});
