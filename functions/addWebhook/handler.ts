import { currentSecret } from '../../shared/domain/webhooks/webhook.ts';
import { NotFound } from '../../shared/errors.ts';
import { operation } from '../../shared/operation.ts';
import { addWebhook, getWebhook } from '../../shared/store/webhooks.ts';
import { newWebhookSecret } from '../../shared/webhooks/signing.ts';
import { checkWebhook } from '../../shared/webhooks/webhook-checks.ts';
import { contract } from './contract.ts';

export const handler = operation(
  contract,
  async ({ user, input }) => {
    await checkWebhook(user.userUid, input.url, input.vehicle_uids);
    const secret = newWebhookSecret();
    const webhook = await addWebhook(
      user.userUid,
      { url: input.url, eventTypes: input.event_types ?? [], vehicleUids: input.vehicle_uids ?? [], description: input.description ?? '' },
      secret,
      new Date(),
    );
    return { webhook_uid: webhook.webhookUid, secret };
  },
  // A replay of the create shows the secret only while it is still the webhook's current one: not once rotated or deleted.
  { liveSecrets: (userUid, answer) => liveSecretOf(userUid, Number(answer.webhook_uid)) },
);

async function liveSecretOf(userUid: number, webhookUid: number): Promise<string[]> {
  try {
    const secret = currentSecret(await getWebhook(userUid, webhookUid, true));
    return secret === undefined ? [] : [secret];
  } catch (error) {
    if (error instanceof NotFound) return [];
    throw error;
  }
}
