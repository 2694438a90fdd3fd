import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenWebhook } from '../support/webhook-builders.ts';

describe('deleteWebhook', () => {
  it('deletes the endpoint and answers its id', async () => {
    // Prepare
    const user = await givenUser();
    const kept = await givenWebhook(user);
    const doomed = await givenWebhook(user);
    // Act
    const res = await callOperation('deleteWebhook', { api_key: user.key, webhook_uid: doomed.webhookUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.webhook_uid).toBe(doomed.webhookUid);
    const got = await callOperation('getWebhook', { api_key: user.key, webhook_uid: doomed.webhookUid });
    expect(got).toBeError(404, 'webhook not found or not linked to this api key');
    const list = await callOperation('getWebhooks', { api_key: user.key });
    expect(list.body.webhooks.map((w) => w.webhook_uid)).toEqual([kept.webhookUid]);
  });

  it('lets exactly one of several simultaneous deletes succeed, and frees one place only', async () => {
    // Prepare
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    for (let i = 0; i < 9; i++) await givenWebhook(user);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => callOperation('deleteWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid })),
    );
    // Assess
    expect(responses.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 200))
      expect(res).toBeError(404, 'webhook not found or not linked to this api key');
    const adds = await Promise.all(Array.from({ length: 3 }, () => givenWebhookByApi(user.key)));
    expect(adds.filter((status) => status === 200)).toHaveLength(1);
  });

  it("answers not found to another user's endpoint and leaves it", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await givenWebhook(other);
    const res = await callOperation('deleteWebhook', { api_key: user.key, webhook_uid: theirs.webhookUid });
    expect(res).toBeError(404, 'webhook not found or not linked to this api key');
    expect(await callOperation('getWebhook', { api_key: other.key, webhook_uid: theirs.webhookUid })).toBeSuccess();
  });

  it.each([undefined, '', 'abc'])('refuses webhook_uid %j', async (webhookUid) => {
    const user = await givenUser();
    const res = await callOperation('deleteWebhook', { api_key: user.key, webhook_uid: webhookUid });
    expect(res).toBeError(400, 'webhook_uid is required and must be an integer');
  });
});

async function givenWebhookByApi(key: string): Promise<number> {
  return (await callOperation('addWebhook', { api_key: key, url: 'https://93.184.215.14/again' })).status;
}
