/**
 * What the quiet-vehicles check reads and writes (docs/positions-pipeline.md, "Quiet vehicles"): the track items
 * due in the sparse `quiet` index, found by time with one Query per shard (no Scan), and the track item's notes of
 * what the check decided, each written only while the vehicle's last point taken is still the one read.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EmissionState } from '../domain/events/detection-events.ts';
import type { FleetEvent } from '../domain/events/event.ts';
import { dynamo, tableName } from './client.ts';
import { vehicleLogPuts } from './events.ts';
import { commitWithFeeds } from './feed.ts';
import { keys, QUIET_CHECK_SHARDS } from './keys.ts';
import { isConditionFailed, queryRange } from './requests.ts';

/** The vehicles whose check is due at or before `dueBy` (UTC ISO), oldest due first within each shard. */
export async function findVehiclesDue(dueBy: string): Promise<number[]> {
  const shards = await Promise.all(
    Array.from({ length: QUIET_CHECK_SHARDS }, (_, shard) => queryRange(keys.quietCheckRange(shard, dueBy))),
  );
  return shards.flat().map((item) => keys.vehicleUidOfTrack(item));
}

/** The condition every write of the check carries: no point was taken since the silence it decided on. */
const stillSilent = { ConditionExpression: 'taken_at = :takenAt' };

/**
 * Declares the vehicle offline: the device.offline event (in the vehicle's log and its users' feeds) and the track
 * item's note, in one transaction conditioned on the emission read (as a detection's events are) and on the silence.
 * False when a point arrived meanwhile.
 */
export async function recordOffline(
  vehicleUid: number,
  silence: { takenAt: string; offlineAt: string },
  events: readonly FleetEvent[],
  emission: { previous: EmissionState; next: EmissionState },
): Promise<boolean> {
  const sequenceCondition =
    emission.previous.sequence === 0 ? 'attribute_not_exists(event_sequence)' : 'event_sequence = :previousSequence';
  try {
    await commitWithFeeds({
      vehicleUid,
      events,
      writes: vehicleLogPuts(events, undefined),
      last: {
        Update: {
          TableName: tableName(),
          Key: keys.trackState(vehicleUid),
          UpdateExpression: 'SET offline_at = :offlineAt, event_sequence = :sequence, event_latest_at = :latestAt',
          ConditionExpression: `${stillSilent.ConditionExpression} AND ${sequenceCondition}`,
          ExpressionAttributeValues: {
            ':takenAt': silence.takenAt,
            ':offlineAt': silence.offlineAt,
            ':sequence': emission.next.sequence,
            ':latestAt': emission.next.latestAt,
            ...(emission.previous.sequence > 0 ? { ':previousSequence': emission.previous.sequence } : {}),
          },
        },
      },
    });
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

const dueAsSeen = (due: string | null): string => (due === null ? 'attribute_not_exists(quiet_due)' : 'quiet_due = :seenDue');

/**
 * After a check: when to look again (null: the vehicle leaves the index until its next point), and whether its open
 * trip is now closed for this silence. Conditioned on the due time read too: a settings change moves it (in the
 * setting's own write, shared/store/vehicles.ts), and a due time worked out from the settings read before must not
 * overwrite it. False when a point arrived or the settings changed meanwhile: the next check looks again.
 */
export async function rescheduleQuietCheck(
  vehicleUid: number,
  seen: { takenAt: string; due: string | null },
  next: string | null,
  tripClosed: boolean,
): Promise<boolean> {
  const index = next ? keys.quietCheck(vehicleUid, next) : undefined;
  const sets = [...(index ? ['quiet_due = :due'] : []), ...(tripClosed ? ['trip_closed_for = :takenAt'] : [])];
  const update = `${sets.length ? `SET ${sets.join(', ')} ` : ''}${index ? '' : 'REMOVE quiet_pk, quiet_due'}`.trim();
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.trackState(vehicleUid),
        UpdateExpression: update,
        ConditionExpression: `${stillSilent.ConditionExpression} AND ${dueAsSeen(seen.due)}`,
        ExpressionAttributeValues: {
          ':takenAt': seen.takenAt,
          ...(seen.due === null ? {} : { ':seenDue': seen.due }),
          ...(index ? { ':due': index.quiet_due } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
