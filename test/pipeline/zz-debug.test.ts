import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { newLocation } from '../../shared/domain/user-location.ts';
import { addUserLocation } from '../../shared/store/user-locations.ts';
import { demoFleetDay, demoZones, interleave, places } from '../../simulator/index.ts';
import { api } from '../support/api.ts';
import { arrivalOrders } from '../support/arrival-orders.ts';
import { anImei } from '../support/builders.ts';
import { deliverDays } from '../support/fleet-truth.ts';

it('debug', async () => {
  const days = demoFleetDay('2026-11-03', await Promise.all([anImei(), anImei(), anImei()]), 3).slice(1, 2);
  const zoneParams = [...places.map((place) => ({ description: place.name, latitude: place.lat, longitude: place.lng, radius: 0.4 })), ...demoZones()];
  const delivered = await deliverDays(days, arrivalOrders.inOrder(interleave(days), 400), async (user) => {
    for (const params of zoneParams) await addUserLocation(user.userUid, newLocation(params));
  });
  const feed = await api.get('getEvents', { api_key: delivered.user.key, since: '2000-01-01 00:00:00', limit: 1000 });
  writeFileSync('/tmp/zz-events.txt', feed.body.events.map((e: any) => `${e.timestamp} ${e.data.sequence} ${e.data.occurred_at} ${e.type} ${e.data.description ?? ''} ${e.data.voided_type ?? ''} ${e.event_id} ${e.data.voided_event_id ?? ''}`).join('\n'));
}, 200_000);
