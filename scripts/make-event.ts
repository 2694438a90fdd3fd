/**
 * Writes the API Gateway REST proxy event a call would produce (`npm run make-event -- --help`).
 * GET parameters go in the query string, POST parameters in a form body; the key is the
 * placeholder YOUR_API_KEY, which `npm run invoke` swaps for the local demo key.
 */
import { writeFileSync } from 'node:fs';
import { findOperation, operations } from '../functions/registry.ts';
import { toApiGatewayEvent } from '../local/api-gateway-event.ts';
import { runScript, UsageError, userPath, writtenNote } from './cli.ts';

export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

await runScript({
  usage: `
npm run make-event -- <operation> [name=value ...] [--raw JSON] [--out file.json]

  npm run make-event -- addExpenseType expense_name=Tolls --out tolls.json
  npm run make-event -- addJobCard --raw '{"ReferenceNumber":"R-1"}' --out job.json

Without --out it REPLACES events/<operation>.json, the sample kept in git (git checkout events/ undoes it).
--out is relative to the folder you run npm in. Operations: ${operations.map((op) => op.name).join(', ')}`,
  options: { raw: 'string', out: 'string' },
  async run({ values, positionals }) {
    const [name, ...pairs] = positionals;
    const operation = findOperation(name ?? '');
    if (!operation) throw new UsageError(name ? `unknown operation ${name}; see --help` : 'expected <operation>; see --help');
    const malformed = pairs.find((pair) => !/^[^=]+=/.test(pair));
    if (malformed) throw new UsageError(`expected name=value, got ${malformed}`);
    const raw = typeof values.raw === 'string' ? values.raw : undefined;
    const params = new URLSearchParams(pairs.map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]));
    const isPost = operation.method === 'POST';
    const query = new URLSearchParams({ api_key: API_KEY_PLACEHOLDER });
    if (!isPost || raw !== undefined) for (const [k, v] of params) query.append(k, v);
    const body = raw ?? (isPost ? params.toString() : '');
    const event = toApiGatewayEvent({
      method: operation.method,
      path: `/api/${operation.name}`,
      operation: operation.name,
      query: query.toString(),
      headers: {
        Accept: 'application/json',
        ...(isPost ? { 'Content-Type': raw !== undefined ? 'application/json' : 'application/x-www-form-urlencoded' } : {}),
      },
      body: Buffer.from(body),
      sourceIp: '203.0.113.10',
    });
    const file = typeof values.out === 'string' ? userPath(values.out) : `events/${operation.name}.json`;
    writeFileSync(file, `${JSON.stringify(event, null, 2)}\n`);
    console.log(writtenNote(file, values.out === undefined));
  },
});
