/** Device readings DynamoDB cannot store as numbers never fail a batch: kept to a fixed precision, or dropped from their point. */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { aPositionRecord, ingest } from '../support/position-builders.ts';

describe('device readings DynamoDB cannot store', () => {
  it('keeps tiny readings and coordinates as 0 and 40 significant digits to a fixed precision', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const record = aPositionRecord(vehicle.imei, '2026-11-03T05:00:00.000Z', {
      latitude: -1e-200,
      longitude: 28.123456789012345,
      ext_temp: 1e-300,
      supp_volt: 13.800000000000001,
      heading: 1e-131,
    });
    // Act
    const outcome = await ingest([record]);
    // Assess
    expect(outcome).toMatchObject({ accepted: 1, rejected: [], failedIds: [] });
    const live = await api.get('getLiveData', { api_key: user.key });
    expect(live.body.vehicles[0]).toMatchObject({ latitude: '0', longitude: '28.1234568' });
  });

  it.each([
    ['odometer_km', 1e200],
    ['engine_hours', 1e127],
    ['fuel_raw', 1e300],
    ['supp_volt', -1e130],
    ['speed', 1e200],
  ])('drops a reading %s of %d, keeps its point and counts the dropped reading', async (field, value) => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const good = aPositionRecord(vehicle.imei, '2026-11-03T05:00:00.000Z');
    const bad = aPositionRecord(vehicle.imei, '2026-11-03T05:01:00.000Z', { [field]: value, latitude: -26.205 });
    // Act
    const outcome = await ingest([good, bad]);
    // Assess
    expect(outcome).toMatchObject({ accepted: 2, rejected: [], failedIds: [], faults: { 'dropped reading': 1 } });
    const live = await api.get('getLiveData', { api_key: user.key });
    expect(live.body.vehicles[0]).toMatchObject({ latitude: '-26.205' });
  });
});
