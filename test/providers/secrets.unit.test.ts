/**
 * Secrets Manager reads (the providers' keys, the cursor key): a fake Secrets Manager on 127.0.0.1, reached through the
 * SDK's own endpoint setting (AWS_ENDPOINT_URL_SECRETS_MANAGER), answers GetSecretValue as the service does.
 */
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { secretString } from '../../shared/telemetry.ts';
import { type Listening, listenOnLoopback } from '../support/loopback.ts';

/** What the fake service answers next for a secret: its text, or a refusal. */
const answers = new Map<string, ({ SecretString: string } | { __type: string })[]>();
const requested: string[] = [];
let service: Listening;

beforeAll(async () => {
  service = await listenOnLoopback(
    createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const { SecretId } = JSON.parse(body) as { SecretId: string };
        requested.push(SecretId);
        const answer = answers.get(SecretId)?.shift() ?? { __type: 'ResourceNotFoundException' };
        response.writeHead('__type' in answer ? 400 : 200, { 'Content-Type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify({ Name: SecretId, ...answer }));
      });
    }),
  );
  for (const [name, value] of Object.entries(settings(service.origin))) vi.stubEnv(name, value);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await service.close();
});

/** The SDK's settings that point the client at the fake service. */
const settings = (origin: string) => ({
  AWS_ENDPOINT_URL_SECRETS_MANAGER: origin,
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
});

/** A secret of its own for each case: the cache outlives a test. */
function givenSecret(...texts: (string | undefined)[]): string {
  const name = `fleet/test-${requested.length}-${Math.random().toString(36).slice(2)}`;
  answers.set(
    name,
    texts.map((text) => (text === undefined ? { __type: 'ResourceNotFoundException' } : { SecretString: text })),
  );
  return name;
}

const readsOf = (name: string) => requested.filter((secretId) => secretId === name).length;

describe('a secret', () => {
  it('is read once and kept for an hour, then read again', async () => {
    // Prepare
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-29T04:00:00Z') });
    const name = givenSecret('first key', 'rotated key');
    // Act
    const first = await secretString(name);
    vi.setSystemTime(Date.parse('2026-11-29T04:59:59Z'));
    const withinTheHour = await secretString(name);
    vi.setSystemTime(Date.parse('2026-11-29T05:00:01Z'));
    const afterTheHour = await secretString(name);
    // Assess
    expect([first, withinTheHour, afterTheHour]).toEqual(['first key', 'first key', 'rotated key']);
    expect(readsOf(name)).toBe(2);
  });

  it('that failed to read is read again on the next call', async () => {
    // Prepare
    const name = givenSecret(undefined, 'the key');
    // Act
    const failed = await secretString(name).catch((error: Error) => error);
    const next = await secretString(name);
    // Assess
    expect(failed).toMatchObject({ name: 'ResourceNotFoundException' });
    expect(next).toBe('the key');
    expect(readsOf(name)).toBe(2);
  });
});
