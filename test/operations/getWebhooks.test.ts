import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenWebhook } from '../support/webhook-builders.ts';

describe('getWebhooks', () => {
  it("lists the user's endpoints by webhook_uid, never their secrets", async () => {
    // Prepare
    const user = await givenUser();
    const first = await givenWebhook(user, { description: 'Dispatch', eventTypes: ['trip.started'] });
    const second = await givenWebhook(user, { description: 'ERP' });
    // Act
    const res = await callOperation('getWebhooks', { api_key: user.key });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(2);
    expect(res.body.webhooks.map((w) => [w.webhook_uid, w.description, w.event_types])).toEqual([
      [first.webhookUid, 'Dispatch', ['trip.started']],
      [second.webhookUid, 'ERP', []],
    ]);
    expect(res.raw.toString()).not.toContain('whsec_');
    expect(Object.keys(res.body.webhooks[0] ?? {}).sort()).toEqual([
      'created_datetime',
      'description',
      'disabled_reason',
      'enabled',
      'event_types',
      'failing_since',
      'last_success_datetime',
      'url',
      'vehicle_uids',
      'webhook_uid',
    ]);
  });

  it('answers an empty list to a user without endpoints', async () => {
    const user = await givenUser();
    const res = await callOperation('getWebhooks', { api_key: user.key });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ cnt: 0, webhooks: [] });
  });
});
