/**
 * Delivery end to end over real receivers on 127.0.0.1: an event written to the table reaches, through the table's
 * stream, the router, the in-process queue and the sender, every endpoint that takes it, signed, retried, isolated.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalWebhookDelivery } from '../../local/webhook-delivery.ts';
import { readDeliveryAttempts } from '../../shared/store/webhook-deliveries.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenWebhook, storedWebhook } from '../support/webhook-builders.ts';
import { givenEvent, startTestDelivery } from '../support/webhook-delivery.ts';
import { answerWith, givenReceiver } from '../support/webhook-receiver.ts';

let delivery: LocalWebhookDelivery;

beforeAll(async () => {
  delivery = await startTestDelivery();
});
afterAll(async () => {
  await delivery?.stop();
});

const attemptsOf = (userUid: number, webhookUid: number, eventId?: string) =>
  readDeliveryAttempts(userUid, webhookUid, eventId, { take: () => true });

describe('a delivery', () => {
  it('POSTs the event as JSON, signed so that the standardwebhooks library verifies it, with the event_id as webhook-id', async () => {
    // Prepare
    const receiver = await givenReceiver();
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const webhook = await givenWebhook(user, { url: receiver.url });
    // Act
    const event = await givenEvent(vehicle, 'trip.started');
    const [received] = await receiver.waitFor(1);
    // Assess
    expect(received?.method).toBe('POST');
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers['webhook-id']).toBe(event.event_id);
    expect(new StandardWebhook(webhook.secret).verify(received?.body as string, received?.headers as Record<string, string>)).toEqual(event);
    await receiver.close();
  });
});
