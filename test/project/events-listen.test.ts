/**
 * `npm run events -- listen` as a child process against the run's local stack: it registers its receiver as a webhook,
 * prints a delivery with its signature verified (testWebhook sends one), refuses a forged one, and removes its
 * webhook on SIGINT and on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser, type TestUser } from '../support/builders.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Listener {
  child: ChildProcess;
  output: () => string;
  /** resolves with the output once it matches */
  until: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

function startListener(user: TestUser, args: string[] = []): Listener {
  const child = spawn(process.execPath, ['scripts/events.ts', 'listen', '--url', inject('apiUrl'), '--key', user.key, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const waiting: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    output += String(chunk);
    for (const check of waiting) check();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    until: (pattern, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${pattern} in ${timeoutMs} ms:\n${output}`)), timeoutMs);
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            clearTimeout(timer);
            resolve(match);
          }
        };
        waiting.push(check);
        check();
      }),
  };
}

describe('npm run events -- listen', () => {
  it('registers a webhook, prints a delivery with its signature verified, and removes the webhook on Ctrl-C', async () => {
    // Prepare
    const user = await givenUser();
    const listener = startListener(user, ['--types', 'trip.started,trip.completed']);
    const [, url, uid] = await listener.until(/listening on (\S+) as webhook (\d+) \(trip\.started,trip\.completed\)/);
    const webhooks = (await callOperation('getWebhooks', { api_key: user.key })).body.webhooks;
    expect(webhooks).toMatchObject([{ webhook_uid: Number(uid), url, event_types: ['trip.started', 'trip.completed'] }]);
    // Act
    const tested = await callOperation('testWebhook', { api_key: user.key, webhook_uid: Number(uid) });
    await listener.until(/webhook\.test \S+ signature verified/);
    listener.child.kill('SIGINT');
    // Assess
    expect(tested.body.status_code).toBe(204);
    expect(listener.output()).toContain(`webhook.test ${tested.body.event_id} signature verified {"webhook_uid":${uid}`);
    expect(await listener.exited).toBe(0);
    expect(listener.output()).toContain(`SIGINT: webhook ${uid} deleted`);
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(0);
  }, 90_000);

  it('answers 400 to a delivery whose signature does not verify, and says so', async () => {
    const user = await givenUser();
    const listener = startListener(user);
    const [, url] = await listener.until(/listening on (\S+) as webhook (\d+)/);
    const forged = await fetch(url as string, {
      method: 'POST',
      headers: { 'webhook-id': 'evt_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: '{"type":"trip.started"}',
    });
    expect(forged.status).toBe(400);
    await listener.until(/evt_forged signature NOT verified/);
    listener.child.kill('SIGTERM');
    expect(await listener.exited).toBe(0);
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(0);
  }, 90_000);

  it('says so in one line when the API refuses the key, and registers nothing', async () => {
    const listener = startListener({ userUid: 0, key: 'not-a-key', gmtOffsetMinutes: 0 });
    expect(await listener.exited).toBe(1);
    expect(listener.output()).toMatch(/^\{"error":"addWebhook answered 401: .+"\}\n$/);
  }, 60_000);
});
