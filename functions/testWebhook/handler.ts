import { finalState, TEST_DELIVERY_TIMEOUT_MS, webhookTestEvent } from '../../shared/domain/webhooks/attempt.ts';
import { operation } from '../../shared/operation.ts';
import { recordDeliveryAttempt } from '../../shared/store/webhook-attempts.ts';
import { getWebhook } from '../../shared/store/webhooks.ts';
import { sendAttempt } from '../../shared/webhooks/attempt.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const webhook = await getWebhook(user.userUid, input.webhook_uid, true);
  const now = new Date();
  const event = webhookTestEvent(webhook.webhookUid, now);
  const outcome = await sendAttempt(webhook, event, { now, timeoutMs: TEST_DELIVERY_TIMEOUT_MS });
  const statusCode = 'status_code' in outcome ? outcome.status_code : null;
  const error = 'error' in outcome ? outcome.error : null;
  await recordDeliveryAttempt(user.userUid, {
    webhookUid: webhook.webhookUid,
    eventId: event.event_id,
    eventType: event.type,
    attempt: 1,
    attemptedAt: now.toISOString(),
    statusCode,
    error,
    durationMs: outcome.duration_ms,
    state: finalState(statusCode),
    nextAttemptAt: null,
  });
  return { webhook_uid: webhook.webhookUid, event_id: event.event_id, status_code: statusCode, error, duration_ms: outcome.duration_ms };
});
