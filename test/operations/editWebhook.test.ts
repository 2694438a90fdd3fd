import { describe, expect, it } from 'vitest';
import { editWebhook } from '../../shared/store/webhooks.ts';
import { callOperation } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenWebhook, PUBLIC_URL, storedWebhook } from '../support/webhook-builders.ts';

describe('editWebhook', () => {
  it('changes the fields given and keeps the others', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { eventTypes: ['trip.started'], description: 'Dispatch' });
    // Act
    const res = await callOperation('editWebhook', {
      api_key: user.key,
      webhook_uid: webhook.webhookUid,
      url: 'https://93.184.215.15/new',
      vehicle_uids: String(vehicle.vehicleUid),
    });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.webhook_uid).toBe(webhook.webhookUid);
    expect(await storedWebhook(user, webhook.webhookUid)).toMatchObject({
      url: 'https://93.184.215.15/new',
      eventTypes: ['trip.started'],
      vehicleUids: [vehicle.vehicleUid],
      description: 'Dispatch',
      secrets: [{ secret: webhook.secret }],
    });
  });

  it('goes back to every type and vehicle on a blank list', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user, { eventTypes: ['trip.started'], vehicleUids: [] });
    await callOperation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, event_types: '' });
    expect((await storedWebhook(user, webhook.webhookUid)).eventTypes).toEqual([]);
  });

  it('re-enables an endpoint the service disabled, clearing its reason, and disables one by hand', async () => {
    // Prepare
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    await editWebhook(user.userUid, webhook.webhookUid, () => ({
      enabled: false,
      disabledReason: 'the endpoint answered 410 Gone',
      failingSince: '2026-11-20T08:00:00.000Z',
    }));
    // Act
    const enabled = await callOperation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, enabled: 1 });
    // Assess
    expect(enabled).toBeSuccess();
    const got = await callOperation('getWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(got.body.webhook).toMatchObject({ enabled: 1, disabled_reason: null, failing_since: null });
    await callOperation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, enabled: '0' });
    const disabled = await callOperation('getWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid });
    expect(disabled.body.webhook).toMatchObject({ enabled: 0, disabled_reason: null });
  });

  it.each([
    [{ enabled: 2 }, 'enabled must be 0 or 1'],
    [{ url: '' }, 'url must not be blank'],
    [{ event_types: 'trip.started,nope' }, 'event_types must be a comma-delimited list of:'],
    [{ url: 'https://169.254.169.254/' }, 'url is not allowed: 169.254.169.254 is not a public address'],
  ])('refuses %j and changes nothing', async (params, message) => {
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    const res = await callOperation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, ...params });
    expect(res.status).toBe(400);
    expect(res.body.error_msg).toContain(message);
    expect(await storedWebhook(user, webhook.webhookUid)).toMatchObject({ url: PUBLIC_URL, enabled: true, eventTypes: [] });
  });

  it("answers not found to another user's endpoint and leaves it", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await givenWebhook(other);
    const res = await callOperation('editWebhook', { api_key: user.key, webhook_uid: theirs.webhookUid, description: 'Mine now' });
    expect(res).toBeError(404, 'webhook not found or not linked to this api key');
    expect((await storedWebhook(other, theirs.webhookUid)).description).toBe('Dispatch');
  });

  it('keeps both of two simultaneous edits of different fields', async () => {
    const user = await givenUser();
    const webhook = await givenWebhook(user);
    await Promise.all([
      callOperation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, description: 'ERP' }),
      callOperation('editWebhook', { api_key: user.key, webhook_uid: webhook.webhookUid, event_types: 'fuel.filled' }),
    ]);
    expect(await storedWebhook(user, webhook.webhookUid)).toMatchObject({ description: 'ERP', eventTypes: ['fuel.filled'] });
  });
});
