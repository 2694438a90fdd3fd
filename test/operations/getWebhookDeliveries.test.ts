import { describe, expect, it } from 'vitest';
import { INVALID_CURSOR } from '../../shared/contracts/paging.ts';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenDeliveryAttempt, givenWebhook } from '../support/webhook-builders.ts';

const EVENT = 'evt_0123456789abcdef0123456789abcdef';

describe('getWebhookDeliveries', () => {
  it('answers every attempt, newest first, with its time, status or error, duration and next attempt', async () => {
    // Prepare
    const user = await givenUser();
    const { webhookUid } = await givenWebhook(user);
    await givenDeliveryAttempt(user, webhookUid, {
      eventId: EVENT,
      attemptedAt: '2026-11-26T10:00:00.250Z',
      statusCode: null,
      error: 'timed out after 10 s',
      durationMs: 10_002,
      nextAttemptAt: '2026-11-26T10:00:15.250Z',
    });
    await givenDeliveryAttempt(user, webhookUid, {
      eventId: EVENT,
      attempt: 2,
      attemptedAt: '2026-11-26T10:00:15.400Z',
      statusCode: 204,
      durationMs: 31,
      state: 'delivered',
      nextAttemptAt: null,
    });
    // Act
    const res = await callOperation('getWebhookDeliveries', { api_key: user.key, webhook_uid: webhookUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toEqual({
      version: expect.any(String),
      result: 'success',
      error_msg: '',
      webhook_uid: webhookUid,
      cnt: 2,
      deliveries: [
        {
          event_id: EVENT,
          event_type: 'trip.started',
          attempt: 2,
          attempted_datetime: '2026-11-26 10:00:15',
          status_code: 204,
          error: null,
          duration_ms: 31,
          state: 'delivered',
          next_attempt_datetime: null,
        },
        {
          event_id: EVENT,
          event_type: 'trip.started',
          attempt: 1,
          attempted_datetime: '2026-11-26 10:00:00',
          status_code: null,
          error: 'timed out after 10 s',
          duration_ms: 10_002,
          state: 'retrying',
          next_attempt_datetime: '2026-11-26 10:00:15',
        },
      ],
    });
  });

  it("answers only one event's attempts when event_id is given", async () => {
    const user = await givenUser();
    const { webhookUid } = await givenWebhook(user);
    await givenDeliveryAttempt(user, webhookUid, { eventId: EVENT });
    await givenDeliveryAttempt(user, webhookUid);
    const res = await callOperation('getWebhookDeliveries', { api_key: user.key, webhook_uid: webhookUid, event_id: EVENT });
    expect(res.body.deliveries.map((d: { event_id: string }) => d.event_id)).toEqual([EVENT]);
  });

  it('answers an empty list for an endpoint nothing was sent to', async () => {
    const user = await givenUser();
    const { webhookUid } = await givenWebhook(user);
    const res = await callOperation('getWebhookDeliveries', { api_key: user.key, webhook_uid: webhookUid });
    expect(res.body).toMatchObject({ cnt: 0, deliveries: [] });
    expect(res.body).not.toHaveProperty('next_cursor');
  });

  it('pages with limit and cursor, each attempt once, and refuses a cursor sent with another event_id', async () => {
    // Prepare: five attempts a minute apart
    const user = await givenUser();
    const { webhookUid } = await givenWebhook(user);
    for (const minute of [1, 2, 3, 4, 5]) {
      await givenDeliveryAttempt(user, webhookUid, { eventId: EVENT, attempt: minute, attemptedAt: `2026-11-26T10:0${minute}:00.000Z` });
    }
    // Act
    const pages: number[][] = [];
    let cursor: string | undefined;
    do {
      const res = await callOperation('getWebhookDeliveries', { api_key: user.key, webhook_uid: webhookUid, limit: 2, cursor });
      expect(res).toBeSuccess();
      pages.push(res.body.deliveries.map((d: { attempt: number }) => d.attempt));
      cursor = res.body.next_cursor;
    } while (cursor);
    const first = await callOperation('getWebhookDeliveries', { api_key: user.key, webhook_uid: webhookUid, limit: 2 });
    const misused = await callOperation('getWebhookDeliveries', {
      api_key: user.key,
      webhook_uid: webhookUid,
      event_id: EVENT,
      cursor: first.body.next_cursor,
    });
    // Assess
    expect(pages).toEqual([[5, 4], [3, 2], [1]]);
    expect(misused).toBeError(400, INVALID_CURSOR);
  });

  it("answers not found for another user's webhook, and lists nothing of theirs", async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await givenWebhook(other);
    await givenDeliveryAttempt(other, theirs.webhookUid);
    const res = await callOperation('getWebhookDeliveries', { api_key: user.key, webhook_uid: theirs.webhookUid });
    expect(res).toBeError(404, 'webhook not found or not linked to this api key');
  });

  it.each([
    [{}, 'webhook_uid is required and must be an integer'],
    [{ webhook_uid: 1, event_id: 'evt_123' }, 'event_id must be an event_id (evt_ and 32 hex digits)'],
    [{ webhook_uid: 1, limit: 0 }, 'limit must be an integer from 1 to 10000'],
  ])('refuses %j with 400', async (params, message) => {
    const user = await givenUser();
    expect(await callOperation('getWebhookDeliveries', { api_key: user.key, ...params })).toBeError(400, message);
  });
});
