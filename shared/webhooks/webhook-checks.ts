/**
 * What addWebhook and editWebhook check beyond their parameters' form, in parameter order: the URL against the
 * URL policy (its host resolved now), then that every vehicle named is the user's.
 */
import { urlNotAllowed } from '../domain/webhooks/url-policy.ts';
import { BadRequest, NotFound } from '../errors.ts';
import { listVehicleLinks } from '../store/vehicles.ts';
import { checkWebhookUrl } from './url-check.ts';

export async function checkWebhook(userUid: number, url: string | undefined, vehicleUids: readonly number[] | undefined): Promise<void> {
  const [target, links] = await Promise.all([
    url === undefined ? undefined : checkWebhookUrl(url),
    vehicleUids === undefined || vehicleUids.length === 0 ? undefined : listVehicleLinks(userUid),
  ]);
  if (target && 'refusal' in target) throw new BadRequest(urlNotAllowed(target.refusal));
  if (links && vehicleUids) {
    const linked = new Set(links.map((link) => link.vehicleUid));
    if (vehicleUids.some((uid) => !linked.has(uid))) throw NotFound.notLinked('vehicle');
  }
}
