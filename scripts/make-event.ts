/**
 * Writes events/<operation>.json: the API Gateway REST proxy event a call would produce.
 *   node scripts/make-event.ts addExpenseType expense_name=Tolls
 *   node scripts/make-event.ts addJobCard --raw '{"ReferenceNumber":"R-1"}'
 * GET parameters go in the query string, POST parameters in a form body; the key is the
 * placeholder YOUR_API_KEY, which `npm run invoke` swaps for the local demo key.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { toApiGatewayEvent } from '../local/api-gateway-event.ts';
import { findOperation } from '../shared/operations.ts';

export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { raw: { type: 'string' } } });
const [name, ...pairs] = positionals;
const operation = findOperation(name ?? '');
if (!operation) {
  console.error(`usage: node scripts/make-event.ts <operation> [name=value ...] [--raw JSON]; unknown operation ${name}`);
  process.exit(1);
}
const params = new URLSearchParams(pairs.map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]));
const isPost = operation.method === 'POST';
const query = new URLSearchParams({ api_key: API_KEY_PLACEHOLDER });
if (!isPost || values.raw !== undefined) for (const [k, v] of params) query.append(k, v);
const body = values.raw ?? (isPost ? params.toString() : '');
const event = toApiGatewayEvent({
  method: operation.method,
  path: `/api/${operation.name}`,
  operation: operation.name,
  query: query.toString(),
  headers: {
    Accept: 'application/json',
    ...(isPost ? { 'Content-Type': values.raw !== undefined ? 'application/json' : 'application/x-www-form-urlencoded' } : {}),
  },
  body: Buffer.from(body),
  sourceIp: '203.0.113.10',
});
writeFileSync(`events/${operation.name}.json`, `${JSON.stringify(event, null, 2)}\n`);
console.log(`events/${operation.name}.json`);
