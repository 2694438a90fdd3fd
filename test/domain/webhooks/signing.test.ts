import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { rotatedSecrets, signingSecrets } from '../../../shared/domain/webhooks/webhook.ts';
import { newWebhookSecret, signDelivery } from '../../../shared/webhooks/signing.ts';

const body = JSON.stringify({ event_id: 'evt_1', type: 'trip.started', data: { vehicle_uid: 7 } });

describe('signDelivery', () => {
  it("makes headers the Standard Webhooks library's verify accepts", () => {
    // Prepare
    const secret = newWebhookSecret();
    // Act
    const headers = signDelivery('evt_1', body, [secret], new Date());
    // Assess
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('is refused by verify under another secret, for another body and for another id', () => {
    const secret = newWebhookSecret();
    const headers = signDelivery('evt_1', body, [secret], new Date());
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('7', '8'), { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow();
  });

  it('carries two space-separated signatures while a rotation overlaps, each verifying with its own secret', () => {
    // Prepare
    const [oldSecret, newSecret] = [newWebhookSecret(), newWebhookSecret()];
    const now = new Date();
    const secrets = signingSecrets({ secrets: rotatedSecrets([{ secret: oldSecret }], newSecret, now) }, now);
    // Act
    const headers = signDelivery('evt_1', body, secrets, now);
    // Assess
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(newSecret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });
});

describe('rotatedSecrets', () => {
  it('lets the old secret sign for 24 hours after a rotation, then only the new one', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    const rotated = rotatedSecrets([{ secret: 'whsec_old' }], 'whsec_new', now);
    expect(signingSecrets({ secrets: rotated }, new Date('2026-11-27T09:59:59Z'))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets({ secrets: rotated }, new Date('2026-11-27T10:00:00Z'))).toEqual(['whsec_new']);
  });

  it('keeps only the new secret and the one it replaces on a second rotation, whatever still overlapped', () => {
    const first = rotatedSecrets([{ secret: 'a' }], 'b', new Date('2026-11-26T10:00:00Z'));
    const second = rotatedSecrets(first, 'c', new Date('2026-11-26T12:00:00Z'));
    expect(second.map((s) => s.secret)).toEqual(['c', 'b']);
    expect(second.find((s) => s.secret === 'b')?.retiresAt).toBe('2026-11-27T12:00:00.000Z');
    const third = rotatedSecrets(second, 'd', new Date('2026-11-28T00:00:00Z'));
    expect(third.map((s) => s.secret)).toEqual(['d', 'c']);
  });
});
