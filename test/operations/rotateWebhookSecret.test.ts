import { describe, expect, it } from 'vitest';
import { ROTATION_OVERLAP_MS, signingSecrets } from '../../shared/domain/webhooks/webhook.ts';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenWebhook, storedWebhook } from '../support/webhook-builders.ts';

describe('rotateWebhookSecret', () => {
  it('answers a new secret that signs beside the old one for 24 hours, then alone', async () => {
    // Prepare
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const before = Date.now();
    // Act
    const res = await callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: webhook.webhookUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.webhook_uid).toBe(webhook.webhookUid);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.secret).not.toBe(webhook.secret);
    const stored = await storedWebhook(user, webhook.webhookUid);
    expect(signingSecrets(stored, new Date())).toEqual([res.body.secret, webhook.secret]);
    const retiresAt = Date.parse(stored.secrets[1]?.retiresAt ?? '');
    expect(retiresAt - before).toBeGreaterThanOrEqual(ROTATION_OVERLAP_MS);
    expect(signingSecrets(stored, new Date(retiresAt))).toEqual([res.body.secret]);
  });

  it('keeps every secret answered by simultaneous rotations: none is lost to a race', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: webhook.webhookUid })),
    );
    for (const res of responses) expect(res).toBeSuccess();
    const stored = await storedWebhook(user, webhook.webhookUid);
    expect(new Set(signingSecrets(stored, new Date()))).toEqual(new Set([webhook.secret, ...responses.map((res) => res.body.secret)]));
  });

  it("answers not found to another user's endpoint and leaves its secret", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await givenWebhook(other);
    const res = await callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: theirs.webhookUid });
    expect(res).toBeError(404, 'webhook not found or not linked to this api key');
    expect((await storedWebhook(other, theirs.webhookUid)).secrets).toEqual([{ secret: theirs.secret }]);
  });
});
