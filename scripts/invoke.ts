/**
 * Runs one handler on a sample API Gateway event, against the `npm start` stack:
 *   npm run invoke -- getVehicles events/getVehicles.json
 * The placeholder key YOUR_API_KEY is replaced by $API_KEY or, failing that, the local demo key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { lambdaContext } from '../local/api-gateway-event.ts';
import { findOperation, handlerPath, streamConsumers } from '../shared/operations.ts';
import { useLocalStackDefaults } from './local-defaults.ts';

const PLACEHOLDER = 'YOUR_API_KEY';

/** The event with the placeholder key replaced wherever it appears (query, body, headers). */
export function withApiKey(event: APIGatewayProxyEvent, apiKey: string): APIGatewayProxyEvent {
  const text = JSON.stringify(event);
  const bodyWasEncoded = event.isBase64Encoded && event.body;
  const replaced = JSON.parse(text.replaceAll(PLACEHOLDER, apiKey)) as APIGatewayProxyEvent;
  if (bodyWasEncoded) replaced.body = Buffer.from(Buffer.from(event.body as string, 'base64').toString('utf8').replaceAll(PLACEHOLDER, apiKey)).toString('base64');
  return replaced;
}

function demoKey(): string | undefined {
  const file = `${process.env.LOCAL_DATA_DIR ?? '.local'}/demo.json`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { apiKey: string }).apiKey : undefined;
}

async function main(): Promise<void> {
  const [name, eventFile] = process.argv.slice(2);
  const known = findOperation(name ?? '') ?? streamConsumers.find((consumer) => consumer.name === name);
  if (!name || !eventFile || !known) {
    console.error('usage: npm run invoke -- <operation> <event.json>   (with `npm start` running)');
    process.exit(1);
  }
  useLocalStackDefaults();
  const event = JSON.parse(readFileSync(eventFile, 'utf8')) as APIGatewayProxyEvent;
  const apiKey = process.env.API_KEY ?? demoKey();
  const { handler } = await import(pathToFileURL(handlerPath(name)).href);
  const result = await handler(apiKey ? withApiKey(event, apiKey) : event, lambdaContext(name, 'local-invoke'));
  const isJson = String(result?.headers?.['Content-Type'] ?? '').startsWith('application/json');
  console.log(JSON.stringify(isJson ? { ...result, body: JSON.parse(result.body) } : result, null, 2));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
