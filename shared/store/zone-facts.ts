/**
 * Standing zone and speeding facts (docs/events.md, "Zones and speeding"): one item per event that stands, keyed by
 * the instant of the point that decided it, written and deleted in the detection's commit with the events, so
 * re-detection from a checkpoint compares its walk with what was really emitted. A fact holds its audience (the
 * zone's user) and the version of the zone it was decided with; items stored before either are read by the domain's
 * rule (shared/domain/events/zone-events.ts). Kept as long as the history.
 */
import { config } from '../config.ts';
import type { ZoneFact } from '../domain/events/zone-events.ts';
import { keys } from './keys.ts';
import { type Item, queryRange } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

export const zoneFactItem = (vehicleUid: number, fact: ZoneFact, eventId: string): Item => ({
  ...keys.zoneFact(vehicleUid, fact.decidedAt, eventId),
  fact: JSON.stringify(fact),
  [tableDefinition.ttlAttribute]: Math.floor(Date.parse(fact.decidedAt) / 1000) + config.positionRetentionDays() * 86_400,
});

/** The vehicle's standing facts decided from `from` on (a checkpoint's hour); strongly consistent, as the pipeline reads what it wrote. */
export async function listZoneFacts(vehicleUid: number, from: string): Promise<ZoneFact[]> {
  const items = await queryRange(keys.zoneFactRange(vehicleUid, from), { ConsistentRead: true });
  return items.map((item) => JSON.parse(String(item.fact)) as ZoneFact);
}
