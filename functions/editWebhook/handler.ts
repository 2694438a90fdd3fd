import { operation } from '../../shared/operation.ts';
import { editWebhook } from '../../shared/store/webhooks.ts';
import { checkWebhook } from '../../shared/webhooks/webhook-checks.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await checkWebhook(user.userUid, input.url, input.vehicle_uids);
  const enabled = input.enabled === undefined ? undefined : input.enabled === 1;
  await editWebhook(user.userUid, input.webhook_uid, () => ({
    url: input.url,
    eventTypes: input.event_types,
    vehicleUids: input.vehicle_uids,
    description: input.description,
    enabled,
    // Enabling starts afresh; disabling by hand is no failure to report.
    ...(enabled === undefined ? {} : { disabledReason: null, failingSince: null }),
  }));
  return { webhook_uid: input.webhook_uid };
});
