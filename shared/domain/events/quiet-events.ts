/**
 * Devices gone quiet (docs/events.md, "device.offline and device.online"; docs/positions-pipeline.md, "Quiet
 * vehicles"): what the quiet-vehicles check decides for a vehicle from when the service last took a point for it,
 * on the service's clock, never the device's. Pure: shared/pipeline/quiet-vehicles.ts reads and writes around it.
 */
import { formatDateTime } from '../time.ts';
import type { DecidedEvent } from './event.ts';

/** What the check knows of a vehicle's silence. */
export interface Silence {
  /** UTC ISO: when the service last took a point for the vehicle */
  takenAt: string;
  /** already declared offline for it */
  offline: boolean;
  /** its open trip already closed for it */
  tripClosed: boolean;
}

export interface QuietRules {
  offlineAfterS: number;
  /** the gap rule: a silence longer than this ends the trip */
  maxGapS: number;
}

const after = (at: string, seconds: number): string => new Date(Date.parse(at) + seconds * 1000).toISOString();

/**
 * What is due at `now` for a silence, and when the check must look again (null: nothing left for this silence; the
 * vehicle's next point brings it back).
 */
export function quietDecision(silence: Silence, rules: QuietRules, now: Date) {
  const offlineAt = after(silence.takenAt, rules.offlineAfterS);
  const closeAt = after(silence.takenAt, rules.maxGapS);
  const nowIso = now.toISOString();
  const goOffline = !silence.offline && offlineAt <= nowIso;
  const closeTrip = !silence.tripClosed && closeAt <= nowIso;
  const pending = [...(silence.offline || goOffline ? [] : [offlineAt]), ...(silence.tripClosed || closeTrip ? [] : [closeAt])].sort();
  return { goOffline, offlineAt, closeTrip, nextCheck: pending[0] ?? null };
}

/** device.offline: at the last point taken plus the threshold, where the vehicle was last seen. */
export function offlineEvent(
  takenAt: string,
  occurredAt: string,
  where: { latitude: number; longitude: number } | undefined,
): DecidedEvent {
  return {
    type: 'device.offline',
    occurredAt,
    subject: `silence:${takenAt}`,
    latitude: where?.latitude ?? null,
    longitude: where?.longitude ?? null,
    fields: { last_response: formatDateTime(takenAt) },
  };
}

/** device.online: when the service took the point that ended the silence, with the silence's length. */
export function onlineEvent(previousTakenAt: string, takenAt: string, where: { latitude: number; longitude: number }): DecidedEvent {
  return {
    type: 'device.online',
    occurredAt: takenAt,
    subject: `silence:${previousTakenAt}`,
    latitude: where.latitude,
    longitude: where.longitude,
    fields: { gap_s: Math.round((Date.parse(takenAt) - Date.parse(previousTakenAt)) / 1000) },
  };
}
