import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MAX_LIVE_SECRETS, ROTATION_OVERLAP_MS, rotatedSecrets, signingSecrets } from '../../shared/domain/webhooks/webhook.ts';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenWebhook, storedWebhook } from '../support/webhook-builders.ts';
import { givenReceiver } from '../support/webhook-receiver.ts';

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

  it('builds each of simultaneous rotations on the one before: the last two answered secrets sign', async () => {
    // Prepare
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: webhook.webhookUid })),
    );
    // Assess
    for (const res of responses) expect(res).toBeSuccess();
    const answered = responses.map((res) => res.body.secret);
    const stored = await storedWebhook(user, webhook.webhookUid);
    const signing = signingSecrets(stored, new Date());
    expect(signing).toHaveLength(MAX_LIVE_SECRETS);
    for (const secret of signing) expect(answered).toContain(secret);
  });

  it('retires the oldest secret at once on a rotation within the overlap: never more than two sign', async () => {
    // Prepare
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const rotate = () => callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: webhook.webhookUid });
    const second = await rotate();
    // Act
    const third = await rotate();
    // Assess
    expect(third).toBeSuccess();
    const stored = await storedWebhook(user, webhook.webhookUid);
    expect(stored.secrets.map((s) => s.secret)).toEqual([third.body.secret, second.body.secret]);
    expect(signingSecrets(stored, new Date())).toEqual([third.body.secret, second.body.secret]);
    expect(JSON.stringify(stored.secrets)).not.toContain(webhook.secret);
  });

  it('signs each delivery with at most two signatures after three rotations: the current secret and the one before', async () => {
    // Prepare
    const user = await givenUser();
    const endpoint = await givenReceiver();
    const webhook = await givenWebhook(user, { url: endpoint.url });
    const rotations = [];
    for (let i = 0; i < 3; i++)
      rotations.push(await callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: webhook.webhookUid }));
    // Act
    const res = await callOperation('testWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    // Assess
    await endpoint.close();
    expect(res.body.status_code).toBe(204);
    const [delivery] = endpoint.received;
    const headers = delivery?.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    const verifiesWith = (secret: string) => {
      try {
        new StandardWebhook(secret).verify(delivery?.body ?? '', headers);
        return true;
      } catch {
        return false;
      }
    };
    const secrets = [webhook.secret, ...rotations.map((rotation) => String(rotation.body.secret))];
    expect(secrets.map(verifiesWith)).toEqual([false, false, true, true]);
  });

  it("answers not found to another user's endpoint and leaves its secret", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await givenWebhook(other);
    const res = await callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: theirs.webhookUid });
    expect(res).toBeError(404, 'webhook not found or not linked to this api key');
    expect((await storedWebhook(other, theirs.webhookUid)).secrets).toEqual([{ secret: theirs.secret }]);
  });
});

describe('signing secrets', () => {
  it('sign with the newest two live ones only, whatever a webhook stored before rotations were bounded held', () => {
    // Prepare: three live secrets, as unbounded rotations left them
    const now = new Date('2026-11-28T10:00:00.000Z');
    const later = '2026-11-29T09:00:00.000Z';
    const stored = { secrets: [{ secret: 'c' }, { secret: 'b', retiresAt: later }, { secret: 'a', retiresAt: later }] };
    // Act
    const signing = signingSecrets(stored, now);
    const rotated = rotatedSecrets(stored.secrets, 'd', now);
    // Assess
    expect(signing).toEqual(['c', 'b']);
    expect(rotated.map((s) => s.secret)).toEqual(['d', 'c']);
  });
});
