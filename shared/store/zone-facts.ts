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

/** A standing fact as stored, with its sort key (the instant that decided it and its event's id). */
export interface StoredZoneFact {
  sk: string;
  fact: ZoneFact;
}

/**
 * The vehicle's standing facts decided from `from` on (a checkpoint's hour), with their keys; strongly consistent, as
 * the pipeline reads what it wrote.
 */
export async function readZoneFacts(vehicleUid: number, from: string): Promise<StoredZoneFact[]> {
  const items = await queryRange(keys.zoneFactRange(vehicleUid, from), { ConsistentRead: true });
  return items.map((item) => ({ sk: String(item.sk), fact: JSON.parse(String(item.fact)) as ZoneFact }));
}

/** The vehicle's standing facts decided from `from` on. */
export async function listZoneFacts(vehicleUid: number, from: string): Promise<ZoneFact[]> {
  return (await readZoneFacts(vehicleUid, from)).map(({ fact }) => fact);
}
