import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { type IsolatedEmulator, startIsolatedEmulator } from '../support/isolated-emulator.ts';
import { closedLocalUrl, givenWebhook, storedWebhook } from '../support/webhook-builders.ts';
import { answerWith, receiversClosedAfterEach } from '../support/webhook-receiver.ts';

const receiver = receiversClosedAfterEach();

const deliveriesOf = async (key: string, webhookUid: number) =>
  (await callOperation('getWebhookDeliveries', { api_key: key, webhook_uid: webhookUid })).body.deliveries;

describe('testWebhook', () => {
  it('POSTs a webhook.test event, signed so the Standard Webhooks library verifies it, and answers the status and time', async () => {
    // Prepare
    const user = await givenUser();
    const endpoint = await receiver();
    const webhook = await givenWebhook(user, { url: endpoint.url });
    // Act
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ webhook_uid: webhook.webhookUid, status_code: 204, error: null });
    expect(res.body.duration_ms).toBeGreaterThanOrEqual(0);
    const [delivery] = endpoint.received;
    const event = new Webhook(webhook.secret).verify(delivery?.body ?? '', delivery?.headers as Record<string, string>);
    expect(event).toMatchObject({ event_id: res.body.event_id, type: 'webhook.test', data: { webhook_uid: webhook.webhookUid } });
    expect(delivery?.headers['webhook-id']).toBe(res.body.event_id);
    expect(res.body.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('records the attempt in the delivery log: delivered for a 2xx', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user, { url: (await receiver(answerWith(200))).url });
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(await deliveriesOf(user.key, webhook.webhookUid)).toEqual([
      {
        event_id: res.body.event_id,
        event_type: 'webhook.test',
        attempt: 1,
        attempted_datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        status_code: 200,
        error: null,
        duration_ms: res.body.duration_ms,
        state: 'delivered',
        next_attempt_datetime: null,
      },
    ]);
  });

  it.each([400, 410, 500, 503])('answers the endpoint’s %i and records it failed, never retried', async (status) => {
    const user = await givenUser();
    const endpoint = await receiver(answerWith(status));
    const webhook = await givenWebhook(user, { url: endpoint.url });
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ status_code: status, error: null });
    expect(await deliveriesOf(user.key, webhook.webhookUid)).toMatchObject([
      { status_code: status, state: 'failed', next_attempt_datetime: null },
    ]);
    expect(endpoint.received).toHaveLength(1);
  });

  it("changes neither the endpoint's state nor its last success, and tests a disabled endpoint too", async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user, { url: (await receiver(answerWith(410))).url });
    await callOperation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, enabled: 0 });
    const before = await storedWebhook(user, webhook.webhookUid);
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(res.body.status_code).toBe(410);
    expect(await storedWebhook(user, webhook.webhookUid)).toEqual(before);
  });

  it('signs with both secrets while a rotation overlaps', async () => {
    const user = await givenUser();
    const endpoint = await receiver();
    const webhook = await givenWebhook(user, { url: endpoint.url });
    const rotated = await callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: webhook.webhookUid });
    await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    const [delivery] = endpoint.received;
    const headers = delivery?.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [webhook.secret, rotated.body.secret])
      expect(() => new Webhook(secret).verify(delivery?.body ?? '', headers)).not.toThrow();
  });

  it('does not follow a redirect: the 3xx is the answer and its Location is never called', async () => {
    const user = await givenUser();
    const elsewhere = await receiver();
    const webhook = await givenWebhook(user, { url: (await receiver(answerWith(302, { location: elsewhere.url }))).url });
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(res.body.status_code).toBe(302);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('answers a refused connection as an error with no status', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user, { url: await closedLocalUrl() });
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ status_code: null, error: 'connection refused' });
    expect(await deliveriesOf(user.key, webhook.webhookUid)).toMatchObject([
      { status_code: null, error: 'connection refused', state: 'failed' },
    ]);
  });

  it('gives up on an endpoint that does not answer within 5 s, inside the function’s own time', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user, { url: (await receiver(() => 'handled')).url });
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ status_code: null, error: 'timed out after 5 s' });
    expect(res.body.duration_ms).toBeGreaterThanOrEqual(5000);
  });

  it('checks the URL again before sending: a stored URL the policy refuses now is never called', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user, { url: 'http://169.254.169.254/latest/meta-data/' });
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ status_code: null, error: 'url is not allowed: 169.254.169.254 is not a public address' });
  });

  it("answers not found for another user's webhook, sends nothing and records nothing", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const endpoint = await receiver();
    const theirs = await givenWebhook(other, { url: endpoint.url });
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: theirs.webhookUid });
    expect(res).toBeError(404, 'webhook not found or not linked to this api key');
    expect(endpoint.received).toHaveLength(0);
    expect(await deliveriesOf(other.key, theirs.webhookUid)).toEqual([]);
  });

  it.each([
    [{}, 'webhook_uid is required and must be an integer'],
    [{ webhook_uid: 'one' }, 'webhook_uid is required and must be an integer'],
  ])('refuses %j with 400', async (params, message) => {
    const user = await givenUser();
    expect(await callOperation('testWebhook', { api_key: user.key, ...params })).toBeError(400, message);
  });
});

describe('testWebhook in a deployed stack (no local targets)', () => {
  let deployed: IsolatedEmulator;
  beforeAll(async () => {
    deployed = await startIsolatedEmulator({ WEBHOOK_ALLOW_LOCAL_TARGETS: '0' });
  }, 60_000);
  afterAll(() => deployed.stop());

  it.each([
    ['http://127.0.0.1:{port}/hooks', 'url is not allowed: the scheme must be https'],
    ['https://127.0.0.1:{port}/hooks', 'url is not allowed: 127.0.0.1 is not a public address'],
    ['https://localhost:{port}/hooks', 'url is not allowed: localhost resolves to 127.0.0.1, which is not a public address'],
  ])('never reaches a receiver on the loopback through %s', async (template, message) => {
    // Prepare: a URL stored as if it had passed once (a DNS answer that changed since)
    const user = await givenUser();
    const endpoint = await receiver();
    const webhook = await givenWebhook(user, { url: template.replace('{port}', new URL(endpoint.origin).port) });
    // Act
    const res = await deployed.api.operation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ status_code: null, error: message });
    expect(endpoint.received).toHaveLength(0);
  });
});
