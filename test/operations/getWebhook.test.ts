import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenWebhook, PUBLIC_URL } from '../support/webhook-builders.ts';

describe('getWebhook', () => {
  it('answers the endpoint with its delivery state and without its secret', async () => {
    // Prepare
    const user = await givenUser();
    const webhook = await givenWebhook(user, { eventTypes: ['fuel.filled'], description: 'ERP' });
    // Act
    const res = await callOperation('getWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.webhook).toStrictEqual({
      webhook_uid: webhook.webhookUid,
      url: PUBLIC_URL,
      event_types: ['fuel.filled'],
      vehicle_uids: [],
      description: 'ERP',
      enabled: 1,
      disabled_reason: null,
      created_datetime: webhook.createdAt.slice(0, 19).replace('T', ' '),
      last_success_datetime: null,
      failing_since: null,
    });
    expect(res.raw.toString()).not.toContain(webhook.secret);
  });

  it("answers not found to another user's endpoint and to one that does not exist", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await givenWebhook(other);
    for (const uid of [theirs.webhookUid, 999_999_999]) {
      const res = await callOperation('getWebhook', { api_key: user.key, webhook_uid: uid });
      expect(res).toBeError(404, 'webhook not found or not linked to this api key');
    }
  });

  it.each([undefined, '', 'abc', '2.5', '99999999999999999999'])('refuses webhook_uid %j', async (webhookUid) => {
    const user = await givenUser();
    const res = await callOperation('getWebhook', { api_key: user.key, webhook_uid: webhookUid });
    expect(res).toBeError(400, 'webhook_uid is required and must be an integer');
  });
});
