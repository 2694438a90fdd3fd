/**
 * `npm run events -- listen`: what `stripe listen` is to Stripe (docs/webhooks.md, "Listening locally"). Starts a
 * receiver on 127.0.0.1, registers it as a webhook of the key's user through the API, prints every event that arrives
 * with its signature verified by the Standard Webhooks library, and deletes the webhook on Ctrl-C.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { localDataDir } from '../local/data-dir.ts';
import { NOT_RUNNING_HINT, runScript, UsageError } from './cli.ts';

interface Answer {
  result?: string;
  error_msg?: string;
  [field: string]: unknown;
}

await runScript({
  usage: `
npm run events -- listen [--types T,T] [--vehicles V,V] [--url URL] [--key KEY] [--port N]

  Registers a webhook of your user pointing at a receiver this command starts on 127.0.0.1, prints each event as it
  arrives (its signature verified with the webhook's secret), and deletes the webhook on Ctrl-C.

  --types T,T      only these event types (docs/events.md; default every type)
  --vehicles V,V   only these vehicle_uids (default every vehicle of yours)
  --url URL        the stack's base URL (default the local one, http://127.0.0.1:$PORT or 3000). A deployed stack refuses
                   http and loopback webhook URLs: listen works against npm start
  --key KEY        the API key (default $API_KEY, else the npm start demo's key in .local/demo.json)
  --port N         the receiver's port on 127.0.0.1 (default: one the system picks)`,
  options: { types: 'string', vehicles: 'string', url: 'string', key: 'string', port: 'string' },
  async run({ values, positionals }) {
    if (positionals[0] !== 'listen' || positionals.length > 1)
      throw new UsageError('expected: npm run events -- listen [options]; see --help');
    const baseUrl = (typeof values.url === 'string' ? values.url : `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(
      /\/(api\/?)?$/,
      '',
    );
    if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new UsageError('--url must be an http(s) URL');
    const key = typeof values.key === 'string' ? values.key : (process.env.API_KEY ?? demoKey());
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError('--port must be a port number');
    await listen({ baseUrl, key, port, types: optionalText(values.types), vehicles: optionalText(values.vehicles) });
  },
});

function optionalText(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function demoKey(): string {
  const file = `${localDataDir()}/demo.json`;
  const key = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { apiKey?: string }).apiKey : undefined;
  if (!key) throw new UsageError(`no --key, no API_KEY and no demo key in ${file}: ${NOT_RUNNING_HINT}`);
  return key;
}

async function callApi(baseUrl: string, key: string, operation: string, params: Record<string, string | undefined>): Promise<Answer> {
  const body = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/api/${operation}`, {
      method: 'POST',
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
    });
  } catch (error) {
    throw new UsageError(`nothing answers at ${baseUrl} (${(error as Error).message}): ${NOT_RUNNING_HINT}`);
  }
  const answer = (await res.json().catch(() => ({}))) as Answer;
  if (!res.ok || answer.result !== 'success')
    throw new UsageError(`${operation} answered ${res.status}: ${answer.error_msg ?? 'no envelope'}`);
  return answer;
}

interface Listen {
  baseUrl: string;
  key: string;
  port: number;
  types: string | undefined;
  vehicles: string | undefined;
}

async function listen({ baseUrl, key, port, types, vehicles }: Listen): Promise<void> {
  let verifier: Webhook | undefined;
  const server = createServer((req, res) => receive(req, res, verifier));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
  const added = await callApi(baseUrl, key, 'addWebhook', {
    url,
    event_types: types,
    vehicle_uids: vehicles,
    description: 'npm run events -- listen',
  }).catch((error) => {
    server.close();
    throw error;
  });
  const webhookUid = String(added.webhook_uid);
  verifier = new Webhook(String(added.secret));
  process.stdout.write(`listening on ${url} as webhook ${webhookUid} (${types ?? 'every type'}); Ctrl-C removes it\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  server.close();
  server.closeAllConnections();
  await callApi(baseUrl, key, 'deleteWebhook', { webhook_uid: webhookUid });
  process.stdout.write(`${signal}: webhook ${webhookUid} deleted\n`);
}

/** One delivery: printed with its verdict; 204 when its signature verifies, 400 (and retried by the service) when not. */
function receive(req: IncomingMessage, res: ServerResponse, verifier: Webhook | undefined): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
  });
  req.on('end', () => {
    const id = String(req.headers['webhook-id'] ?? '-');
    try {
      if (!verifier) throw new Error('not registered yet');
      const event = verifier.verify(body, req.headers as Record<string, string>) as { type?: string; data?: Record<string, unknown> };
      process.stdout.write(`${new Date().toISOString()} ${event.type} ${id} signature verified ${JSON.stringify(event.data)}\n`);
      res.writeHead(204).end();
    } catch (error) {
      process.stdout.write(`${new Date().toISOString()} ${id} signature NOT verified (${(error as Error).message}): answered 400\n`);
      res.writeHead(400).end();
    }
  });
}
