/**
 * SSRF refusals through addWebhook and editWebhook on a server with the deployed policy (WEBHOOK_ALLOW_LOCAL_TARGETS=0;
 * the run's shared server has npm start's), so only https to a public unicast address is accepted. Nothing is sent
 * anywhere: refused URLs are refused before any connection, and accepted ones are never called here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationName } from '../../functions/registry.ts';
import { givenUser } from '../support/builders.ts';
import { type IsolatedEmulator, startIsolatedEmulator } from '../support/isolated-emulator.ts';
import { givenWebhook, PUBLIC_URL, storedWebhook } from '../support/webhook-builders.ts';

const refusals: [string, string][] = [
  ['http://93.184.215.14/hook', 'url is not allowed: the scheme must be https'],
  ['ftp://93.184.215.14/hook', 'url is not allowed: the scheme must be https'],
  ['not a url', 'url is not allowed: not an absolute URL'],
  ['https://user:pass@93.184.215.14/hook', 'url is not allowed: credentials in the URL are not allowed'],
  ['https://127.0.0.1/hook', 'url is not allowed: 127.0.0.1 is not a public address'],
  ['https://127.1.2.3:8443/hook', 'url is not allowed: 127.1.2.3 is not a public address'],
  ['https://10.0.0.5/hook', 'url is not allowed: 10.0.0.5 is not a public address'],
  ['https://172.16.0.1/hook', 'url is not allowed: 172.16.0.1 is not a public address'],
  ['https://192.168.1.1/hook', 'url is not allowed: 192.168.1.1 is not a public address'],
  ['https://169.254.169.254/latest/meta-data/', 'url is not allowed: 169.254.169.254 is not a public address'],
  ['https://100.64.0.1/hook', 'url is not allowed: 100.64.0.1 is not a public address'],
  ['https://224.0.0.1/hook', 'url is not allowed: 224.0.0.1 is not a public address'],
  ['https://0.0.0.0/hook', 'url is not allowed: 0.0.0.0 is not a public address'],
  ['https://240.0.0.1/hook', 'url is not allowed: 240.0.0.1 is not a public address'],
  ['https://255.255.255.255/hook', 'url is not allowed: 255.255.255.255 is not a public address'],
  ['https://2130706433/hook', 'url is not allowed: 127.0.0.1 is not a public address'],
  ['https://0x7f.1/hook', 'url is not allowed: 127.0.0.1 is not a public address'],
  ['https://[::1]/hook', 'url is not allowed: ::1 is not a public address'],
  ['https://[::]/hook', 'url is not allowed: :: is not a public address'],
  ['https://[::ffff:169.254.169.254]/hook', 'url is not allowed: ::ffff:a9fe:a9fe is not a public address'],
  ['https://[fd00::1]/hook', 'url is not allowed: fd00::1 is not a public address'],
  ['https://[fe80::1]/hook', 'url is not allowed: fe80::1 is not a public address'],
  ['https://[ff02::1]/hook', 'url is not allowed: ff02::1 is not a public address'],
  ['https://localhost/hook', 'url is not allowed: localhost resolves to 127.0.0.1, which is not a public address'],
  ['https://[::127.0.0.1]/hook', 'url is not allowed: ::7f00:1 is not a public address'],
  ['https://[::a9fe:a9fe]/hook', 'url is not allowed: ::a9fe:a9fe is not a public address'],
  ['https://[::ffff:0:7f00:1]/hook', 'url is not allowed: ::ffff:0:7f00:1 is not a public address'],
  ['https://[64:ff9b::a9fe:a9fe]/hook', 'url is not allowed: 64:ff9b::a9fe:a9fe is not a public address'],
  ['https://[64:ff9b:1::a00:1]/hook', 'url is not allowed: 64:ff9b:1::a00:1 is not a public address'],
  ['https://[3fff::1]/hook', 'url is not allowed: 3fff::1 is not a public address'],
  ['https://[5f00::1]/hook', 'url is not allowed: 5f00::1 is not a public address'],
  ['https://[2001:db8::1]/hook', 'url is not allowed: 2001:db8::1 is not a public address'],
  ['https://93.184.215.14:8080/hook', 'url is not allowed: port 8080 is not allowed (443 or 8443 only)'],
  ['https://93.184.215.14:22/hook', 'url is not allowed: port 22 is not allowed (443 or 8443 only)'],
];

let deployed: IsolatedEmulator;
beforeAll(async () => {
  deployed = await startIsolatedEmulator({ WEBHOOK_ALLOW_LOCAL_TARGETS: '0' });
}, 60_000);
afterAll(() => deployed.stop());

const callOperation = <N extends OperationName>(name: N, params: Record<string, string | number | undefined>) =>
  deployed.api.operation(name, params);

describe('webhook URLs in a deployed stack', () => {
  it.each(refusals)('refuses %s on add, and stores nothing', async (url, message) => {
    const user = await givenUser();
    const res = await callOperation('addWebhook', { api_key: user.key, url });
    expect(res).toBeError(400, message);
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(0);
  });

  it.each(refusals)('refuses %s on edit, and keeps the URL it had', async (url, message) => {
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const res = await callOperation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, url });
    expect(res).toBeError(400, message);
    expect((await storedWebhook(user, webhook.webhookUid)).url).toBe(PUBLIC_URL);
  });

  it('refuses a host that does not resolve', async () => {
    const user = await givenUser();
    const res = await callOperation('addWebhook', { api_key: user.key, url: 'https://nowhere.invalid/hook' });
    expect(res).toBeError(400, 'url is not allowed: nowhere.invalid does not resolve');
  });

  it.each(['https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook', 'https://93.184.215.14:8443/hook'])(
    'accepts https to a public address on port 443 or 8443: %s',
    async (url) => {
      const user = await givenUser();
      const res = await callOperation('addWebhook', { api_key: user.key, url });
      expect(res).toBeSuccess();
    },
  );
});
