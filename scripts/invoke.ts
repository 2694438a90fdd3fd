/**
 * Runs one handler on a sample API Gateway event, against the `npm start` stack:
 *   npm run invoke -- getVehicles events/getVehicles.json
 * The placeholder key YOUR_API_KEY is replaced by $API_KEY or, failing that, the local demo key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { findOperation, handlerPath, operations, streamConsumers } from '../functions/registry.ts';
import { lambdaContext } from '../local/api-gateway-event.ts';
import { localDataDir } from '../local/data-dir.ts';
import { runScript, UsageError, useLocalStack, userPath } from './cli.ts';

const PLACEHOLDER = 'YOUR_API_KEY';

/** The event with the placeholder key replaced wherever it appears (query, body, headers). */
export function withApiKey(event: APIGatewayProxyEvent, apiKey: string): APIGatewayProxyEvent {
  const text = JSON.stringify(event);
  const bodyWasEncoded = event.isBase64Encoded && event.body;
  const replaced = JSON.parse(text.replaceAll(PLACEHOLDER, apiKey)) as APIGatewayProxyEvent;
  if (bodyWasEncoded)
    replaced.body = Buffer.from(
      Buffer.from(event.body as string, 'base64')
        .toString('utf8')
        .replaceAll(PLACEHOLDER, apiKey),
    ).toString('base64');
  return replaced;
}

function demoKey(): string | undefined {
  const file = `${localDataDir()}/demo.json`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { apiKey: string }).apiKey : undefined;
}

/** An API answer fails with a status of 400 or more; a stream consumer fails when it reports failed records. */
function failed(result: { statusCode?: number; batchItemFailures?: unknown[] } | undefined): boolean {
  return (result?.statusCode ?? 200) >= 400 || (result?.batchItemFailures?.length ?? 0) > 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runScript({
    usage: `
npm run invoke -- <operation> <event.json>     (with \`npm start\` running)

Runs the operation's handler in this process on the event (events/<operation>.json are samples; a relative
path is read from the folder you run npm in) and prints its result. Exits 1 when the handler answers a status
of 400 or more, reports failed records, or throws. YOUR_API_KEY in the event becomes $API_KEY or the demo key.
Operations: ${[...operations.map((op) => op.name), ...streamConsumers.map((consumer) => consumer.name)].join(', ')}`,
    options: {},
    async run({ positionals }) {
      const [name, eventFile, extra] = positionals;
      if (!name || !eventFile || extra !== undefined) throw new UsageError('expected <operation> <event.json>; see --help');
      if (!findOperation(name) && !streamConsumers.some((consumer) => consumer.name === name))
        throw new UsageError(`unknown operation ${name}; see --help`);
      // From the user's folder, else the project's samples (events/…), which work from any folder.
      const path = [userPath(eventFile), resolve(import.meta.dirname, '..', eventFile)].find((candidate) => existsSync(candidate));
      if (!path) throw new UsageError(`no such file: ${userPath(eventFile)}`);
      let event: APIGatewayProxyEvent;
      try {
        event = JSON.parse(readFileSync(path, 'utf8')) as APIGatewayProxyEvent;
      } catch {
        throw new UsageError(`${path} is not a JSON event`);
      }
      await useLocalStack();
      const apiKey = process.env.API_KEY ?? demoKey();
      const { handler } = await import(pathToFileURL(handlerPath(name)).href);
      const result = await handler(apiKey ? withApiKey(event, apiKey) : event, lambdaContext(name, 'local-invoke'));
      const isJson = String(result?.headers?.['Content-Type'] ?? '').startsWith('application/json');
      console.log(JSON.stringify(isJson ? { ...result, body: JSON.parse(result.body) } : result, null, 2));
      if (failed(result)) process.exitCode = 1;
    },
  });
}
