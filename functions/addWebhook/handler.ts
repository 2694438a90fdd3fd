import { operation } from '../../shared/operation.ts';
import { addWebhook } from '../../shared/store/webhooks.ts';
import { checkEndpoint } from '../../shared/webhooks/endpoints.ts';
import { newWebhookSecret } from '../../shared/webhooks/signing.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await checkEndpoint(user.userUid, input.url, input.vehicle_uids);
  const secret = newWebhookSecret();
  const webhook = await addWebhook(
    user.userUid,
    { url: input.url, eventTypes: input.event_types ?? [], vehicleUids: input.vehicle_uids ?? [], description: input.description ?? '' },
    secret,
    new Date(),
  );
  return { webhook_uid: webhook.webhookUid, secret };
});
