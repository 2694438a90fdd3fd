/**
 * Webhook delivery for a test file: the stream reader, the in-process queue and the sender, as npm start runs them,
 * in this worker so the file's settings (WEBHOOK_* below) are theirs. The run's shared stack delivers nothing and its
 * table has no stream (local/table.ts says why), so a file that delivers works on a table of its own, with a stream,
 * behind an emulator of its own: its builders, its API calls and its reader all see only its own data, and files
 * that deliver run beside each other and beside the rest.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable } from '../../local/table.ts';
import { type LocalWebhookDelivery, startWebhookDelivery } from '../../local/webhooks.ts';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import type { EventType } from '../../shared/domain/events/event-types.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { commitEvents } from '../../shared/store/feed.ts';
import { sendApiCallsTo } from './api.ts';
import { startIsolatedEmulator } from './isolated-emulator.ts';

/** Loopback receivers are allowed, as npm start allows them; retries come after a second. */
export const TEST_DELIVERY_SETTINGS = {
  WEBHOOK_ALLOW_LOCAL_TARGETS: '1',
  WEBHOOK_RETRY_SCHEDULE_S: '1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '10000',
  WEBHOOK_ENDPOINT_CONCURRENCY: '4',
};

export async function startTestDelivery(settings: Record<string, string> = {}): Promise<LocalWebhookDelivery> {
  const tableName = `fleet-tracking-delivery-${randomUUID().slice(0, 8)}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  Object.assign(process.env, TEST_DELIVERY_SETTINGS, settings, { TABLE_NAME: tableName });
  const emulator = await startIsolatedEmulator({ TABLE_NAME: tableName });
  sendApiCallsTo(emulator.url);
  const delivery = await startWebhookDelivery({ endpoint: inject('dynamoEndpoint'), tableName });
  return {
    ...delivery,
    async stop() {
      sendApiCallsTo(undefined);
      await Promise.all([delivery.stop(), emulator.stop()]);
    },
  };
}

let sequence = 0;

/** An event of the vehicle written to the table as the pipeline writes it (its own item, which the stream carries). */
export async function givenEvent(vehicle: Vehicle, type: EventType = 'trip.started'): Promise<FleetEvent> {
  const event: FleetEvent = {
    event_id: `evt_${randomUUID().replaceAll('-', '')}`,
    type,
    timestamp: new Date().toISOString(),
    data: {
      vehicle_uid: vehicle.vehicleUid,
      imei: vehicle.imei,
      vehicle_name: vehicle.name,
      occurred_at: new Date().toISOString().slice(0, 19).replace('T', ' '),
      sequence: ++sequence,
      late: 0,
      latitude: -26.2041,
      longitude: 28.0473,
    },
  };
  await commitEvents(event.data.vehicle_uid, [event]);
  return event;
}
