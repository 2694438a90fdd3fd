/**
 * The event object (docs/events.md): the same in the getEvents feed and in every webhook body, in Standard
 * Webhooks' shape. An event's identity is derived from its fact, so the same fact always has the same event_id.
 */
import { createHash } from 'node:crypto';
import { formatDateTime } from '../time.ts';
import type { EventType } from './event-types.ts';

/** What every event's data carries, whatever its type; the type's own fields follow. */
export interface EventData {
  vehicle_uid: number;
  imei: string;
  vehicle_name: string;
  /** GMT+0, yyyy-mm-dd hh:mm:ss */
  occurred_at: string;
  /** per vehicle, increasing in emission order */
  sequence: number;
  /** 1 when emitted after a later-occurring event of the same vehicle */
  late: 0 | 1;
  latitude: number | null;
  longitude: number | null;
  [field: string]: unknown;
}

export interface FleetEvent {
  event_id: string;
  type: EventType;
  /** when the service emitted it, ISO 8601 UTC */
  timestamp: string;
  data: EventData;
}

/** An event as decided, before the emission gives it its time, sequence and lateness. */
export interface DecidedEvent {
  type: EventType;
  /** UTC ISO instant */
  occurredAt: string;
  /** what the fact is about (a trip's start, a fill's event_uid, a zone): part of its identity */
  subject: string;
  latitude: number | null;
  longitude: number | null;
  /** the type's own fields; their figures are part of the identity, so a changed fact gets a new id */
  fields: Record<string, unknown>;
  /** an event.voided's fact, by its id (eventIdOf) */
  voids?: string;
  /** the uid of the user whose zones decided the fact (and its void): that user alone sees it (recipients.ts); absent for a vehicle fact */
  audience?: number;
}

/** Events are kept 30 days after their emission. */
export const EVENT_RETENTION_S = 30 * 24 * 3600;

/** The same fact always has the same id: vehicle, type, subject, occurred_at and the fact's figures. */
export function eventIdOf(vehicleUid: number, event: Pick<DecidedEvent, 'type' | 'subject' | 'occurredAt' | 'fields'>): string {
  const fact = JSON.stringify([vehicleUid, event.type, event.subject, event.occurredAt, event.fields]);
  return `evt_${createHash('sha256').update(fact, 'utf8').digest('hex').slice(0, 32)}`;
}

export interface VehicleOfEvent {
  vehicleUid: number;
  imei: string;
  name: string;
}

/**
 * The id a fact is emitted under the `reissue`-th time it is found again after being voided: its own id the first
 * time, a new one each time after, so a receiver that drops an event_id it has seen still takes the fact back.
 */
export const emittedIdOf = (factId: string, reissue: number): string =>
  reissue === 0 ? factId : `evt_${createHash('sha256').update(`${factId}#${reissue}`, 'utf8').digest('hex').slice(0, 32)}`;

/** The event object of a decided event, emitted at `emittedAt` as the vehicle's `sequence`-th event under `eventId`. */
export function emitEvent(
  vehicle: VehicleOfEvent,
  event: DecidedEvent,
  emission: { eventId: string; emittedAt: Date; sequence: number; late: boolean },
): FleetEvent {
  return {
    event_id: emission.eventId,
    type: event.type,
    timestamp: emission.emittedAt.toISOString(),
    data: {
      vehicle_uid: vehicle.vehicleUid,
      imei: vehicle.imei,
      vehicle_name: vehicle.name,
      occurred_at: formatDateTime(event.occurredAt),
      sequence: emission.sequence,
      late: emission.late ? 1 : 0,
      latitude: event.latitude,
      longitude: event.longitude,
      ...event.fields,
    },
  };
}
