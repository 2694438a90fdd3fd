/**
 * What addWebhook and editWebhook check beyond their parameters' form, in parameter order: the URL against the
 * URL policy (its host resolved now), then that every vehicle named is the user's.
 */
import { urlNotAllowed } from '../domain/webhooks/url-policy.ts';
import { BadRequest, NotFound } from '../errors.ts';
import { unlinkedVehicleUids } from '../store/vehicles.ts';
import { checkWebhookUrl } from './url-check.ts';

export async function checkWebhook(userUid: number, url: string | undefined, vehicleUids: readonly number[] | undefined): Promise<void> {
  const [target, unlinked] = await Promise.all([
    url === undefined ? undefined : checkWebhookUrl(url),
    vehicleUids === undefined || vehicleUids.length === 0 ? [] : unlinkedVehicleUids(userUid, vehicleUids),
  ]);
  if (target && 'refusal' in target) throw new BadRequest(urlNotAllowed(target.refusal));
  if (unlinked.length > 0) throw NotFound.notLinked('vehicle');
}
