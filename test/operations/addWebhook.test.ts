import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MAX_WEBHOOKS_PER_USER } from '../../shared/domain/webhooks/webhook.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { callOperation } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenWebhook, PUBLIC_URL, storedWebhook } from '../support/webhook-builders.ts';

describe('addWebhook', () => {
  it('registers the endpoint for every type and vehicle by default and answers its id and a whsec_ secret of 32 bytes', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation('addWebhook', { api_key: user.key, url: PUBLIC_URL });
    // Assess
    expect(res).toBeSuccess();
    expect(Object.keys(res.body).sort()).toEqual(['error_msg', 'result', 'secret', 'version', 'webhook_uid']);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(String(res.body.secret).slice('whsec_'.length), 'base64')).toHaveLength(32);
    const got = await callOperation('getWebhook', { api_key: user.key, webhook_uid: res.body.webhook_uid });
    expect(got.body.webhook).toMatchObject({
      webhook_uid: res.body.webhook_uid,
      url: PUBLIC_URL,
      event_types: [],
      vehicle_uids: [],
      description: '',
      enabled: 1,
      disabled_reason: null,
      last_success_datetime: null,
      failing_since: null,
    });
    expect(got.body.webhook.created_datetime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('keeps the types, vehicles and description given, without duplicates or blanks', async () => {
    // Prepare
    const user = await givenUser();
    const [first, second] = [await givenVehicle(user), await givenVehicle(user)];
    // Act
    const res = await callOperation('addWebhook', {
      api_key: user.key,
      url: PUBLIC_URL,
      event_types: 'trip.started, trip.completed,,trip.started',
      vehicle_uids: `${second?.vehicleUid}, ${first?.vehicleUid},`,
      description: 'ERP',
    });
    // Assess
    expect(res).toBeSuccess();
    const stored = await storedWebhook(user, res.body.webhook_uid);
    expect(stored).toMatchObject({
      eventTypes: ['trip.started', 'trip.completed'],
      vehicleUids: [second?.vehicleUid, first?.vehicleUid],
      description: 'ERP',
    });
  });

  it('stores the secret it answered: a signature made with it verifies with the Standard Webhooks library', async () => {
    // Prepare
    const user = await givenUser();
    const res = await callOperation('addWebhook', { api_key: user.key, url: PUBLIC_URL });
    const [signing] = (await storedWebhook(user, res.body.webhook_uid)).secrets;
    // Act
    const body = '{"event_id":"evt_1"}';
    const signature = new StandardWebhook(signing?.secret as string).sign('evt_1', new Date(), body);
    // Assess
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': signature };
    expect(new StandardWebhook(String(res.body.secret)).verify(body, headers)).toEqual({ event_id: 'evt_1' });
  });

  it.each([
    [{}, 'url is required'],
    [{ url: '' }, 'url is required'],
    [{ url: `https://example.com/${'a'.repeat(2048)}` }, 'url is too long (max 2048 chars)'],
    [{ url: PUBLIC_URL, event_types: 'trip.started,teleported' }, 'event_types must be a comma-delimited list of:'],
    [{ url: PUBLIC_URL, vehicle_uids: '1,two' }, 'vehicle_uids must be a comma-delimited list of vehicle_uid'],
    [{ url: PUBLIC_URL, description: 'x'.repeat(256) }, 'description is too long (max 255 chars)'],
  ])('refuses %j', async (params, message) => {
    const user = await givenUser();
    const res = await callOperation('addWebhook', { api_key: user.key, ...params });
    expect(res.status).toBe(400);
    expect(res.body.error_msg).toContain(message);
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(0);
  });

  it('refuses a vehicle of another user as not linked, and stores nothing', async () => {
    const [user, other] = [await givenUser(), await givenUser()];
    const theirs = await givenVehicle(other);
    const res = await callOperation('addWebhook', { api_key: user.key, url: PUBLIC_URL, vehicle_uids: String(theirs.vehicleUid) });
    expect(res).toBeError(404, 'vehicle not found or not linked to this api key');
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(0);
  });

  it(`refuses an eleventh endpoint: ${MAX_WEBHOOKS_PER_USER} per user`, async () => {
    // Prepare
    const user = await givenUser();
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i++) await givenWebhook(user);
    // Act
    const res = await callOperation('addWebhook', { api_key: user.key, url: PUBLIC_URL });
    // Assess
    expect(res).toBeError(409, 'at most 10 webhooks per user');
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(MAX_WEBHOOKS_PER_USER);
  });

  it('keeps the cap under 20 simultaneous adds: exactly 10 succeed', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => callOperation('addWebhook', { api_key: user.key, url: PUBLIC_URL })),
    );
    // Assess
    expect(responses.filter((res) => res.status === 200)).toHaveLength(MAX_WEBHOOKS_PER_USER);
    for (const res of responses.filter((r) => r.status !== 200)) expect(res).toBeError(409, 'at most 10 webhooks per user');
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(MAX_WEBHOOKS_PER_USER);
  });

  it('frees a place when an endpoint is deleted', async () => {
    const user = await givenUser();
    const webhooks = [];
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i++) webhooks.push(await givenWebhook(user));
    await callOperation('deleteWebhook', { api_key: user.key, webhook_uid: webhooks[0]?.webhookUid });
    expect(await callOperation('addWebhook', { api_key: user.key, url: PUBLIC_URL })).toBeSuccess();
  });
});

describe('addWebhook replayed with its Idempotency-Key', () => {
  const addWith = (user: TestUser, key: string) =>
    callOperation('addWebhook', { api_key: user.key, url: PUBLIC_URL, description: 'ERP' }, { headers: { 'Idempotency-Key': key } });

  it('answers the same secret again while it is still the current one', async () => {
    // Prepare
    const user = await givenUser();
    const key = randomUUID();
    const first = await addWith(user, key);
    // Act
    const replay = await addWith(user, key);
    // Assess
    expect(replay).toBeSuccess();
    expect(replay.body).toEqual(first.body);
    expect(replay.body.secret).toMatch(/^whsec_/);
  });

  it('answers the webhook and no secret once the secret was rotated', async () => {
    // Prepare
    const user = await givenUser();
    const key = randomUUID();
    const first = await addWith(user, key);
    await callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: first.body.webhook_uid });
    // Act
    const replay = await addWith(user, key);
    // Assess
    expect(replay).toBeSuccess();
    expect(replay.body).toEqual({ ...first.body, secret: null });
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(1);
  });

  it('answers the webhook and no secret once the webhook was deleted, and creates nothing', async () => {
    // Prepare
    const user = await givenUser();
    const key = randomUUID();
    const first = await addWith(user, key);
    await callOperation('deleteWebhook', { api_key: user.key, webhook_uid: first.body.webhook_uid });
    // Act
    const replay = await addWith(user, key);
    // Assess
    expect(replay).toBeSuccess();
    expect(replay.body).toEqual({ ...first.body, secret: null });
    expect((await callOperation('getWebhooks', { api_key: user.key })).body.cnt).toBe(0);
  });

  it('keeps no secret in its idempotency record, only what recognises it', async () => {
    // Prepare
    const user = await givenUser();
    const key = randomUUID();
    // Act
    const first = await addWith(user, key);
    // Assess
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: keys.idempotencyRecord(user.userUid, 'addWebhook', key), ConsistentRead: true }),
    );
    const stored = JSON.stringify(Item);
    const secretKey = String(first.body.secret).slice('whsec_'.length);
    expect(Item?.status).toBe('completed');
    expect(stored).not.toContain(secretKey);
    expect(stored).not.toContain(Buffer.from(secretKey, 'base64').toString('hex'));
    expect(JSON.parse(Item?.answer)).toEqual({ webhook_uid: first.body.webhook_uid, secret: null });
  });

  it('judges a record stored before secrets were sealed, which holds the secret itself, the same way', async () => {
    // Prepare: the record as it was stored before, the answer whole and no hash
    const user = await givenUser();
    const key = randomUUID();
    const first = await addWith(user, key);
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.idempotencyRecord(user.userUid, 'addWebhook', key),
        UpdateExpression: 'SET answer = :answer REMOVE secret_hashes',
        ExpressionAttributeValues: { ':answer': JSON.stringify({ webhook_uid: first.body.webhook_uid, secret: first.body.secret }) },
      }),
    );
    // Act
    const whileCurrent = await addWith(user, key);
    await callOperation('rotateWebhookSecret', { api_key: user.key, webhook_uid: first.body.webhook_uid });
    const afterRotation = await addWith(user, key);
    // Assess
    expect(whileCurrent.body.secret).toBe(first.body.secret);
    expect(afterRotation.body).toEqual({ ...first.body, secret: null });
  });
});
