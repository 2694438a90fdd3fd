import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DemoAccount, seedDemo } from '../../local/seed.ts';
import { ensureTable } from '../../local/table.ts';
import { distanceKm } from '../../shared/domain/geo.ts';
import { demoFleetDay, interleave, recordsUntil } from '../../simulator/index.ts';
import { type IsolatedEmulator, startIsolatedEmulator } from '../support/isolated-emulator.ts';

const IMEIS = ['356307042441013', '356307042441021', '356307042441039'];

describe('the demo simulation', () => {
  it("carries every vehicle's odometer on from one day to the next", () => {
    // Act
    const days = ['2026-11-19', '2026-11-20', '2026-11-21'].map((date, i) => demoFleetDay(date, IMEIS, 7 + i));
    // Assess
    for (const [index] of IMEIS.entries()) {
      for (const [d, day] of days.slice(1).entries()) {
        expect(day[index]?.vehicle.odometerKm).toBeCloseTo(days[d]?.[index]?.end.odometerKm as number, 2);
      }
    }
  });

  it('parks each vehicle overnight where its next day starts, at three different places', () => {
    // Act
    const day = demoFleetDay('2026-11-20', IMEIS, 1);
    // Assess
    expect(day.map((vehicle) => vehicle.end.place)).toEqual(day.map((vehicle) => vehicle.vehicle.home));
    expect(new Set(day.map((vehicle) => vehicle.end.place)).size).toBe(3);
  });

  it('reports nothing later than now', () => {
    // Prepare
    const now = Date.parse('2026-11-20T09:30:00Z');
    // Act
    const records = recordsUntil(interleave(demoFleetDay('2026-11-20', IMEIS, 1)), now);
    // Assess
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => Date.parse(record.gps_datetime) <= now)).toBe(true);
  });
});

describe('the npm start demo account', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-demo-'));
  // A table of its own, as npm start has: the demo's tag_ids and IMEIs are global, and the run's shared table
  // holds every other test's records.
  const demoTable = 'fleet-tracking-demo-test';
  let emulator: IsolatedEmulator;
  let demo: DemoAccount;
  // Seeded once, as npm start seeds once: a day of three vehicles through the real pipeline takes seconds alone and
  // minutes beside the rest of the suite on the same DynamoDB Local.
  beforeAll(async () => {
    // no stream: nothing here delivers webhooks (local/table.ts says what a stream costs DynamoDB Local)
    await ensureTable(inject('dynamoEndpoint'), demoTable, { stream: false });
    process.env.TABLE_NAME = demoTable;
    emulator = await startIsolatedEmulator({ TABLE_NAME: demoTable });
    demo = await seedDemo(join(dir, 'demo.json'), `${emulator.url}/oidc`);
  }, 300_000);
  afterAll(async () => {
    await emulator?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has vehicles spread over the region, polygons without float noise and nothing in the future', async () => {
    // Act
    const live = await emulator.api.get('getLiveData', { api_key: demo.apiKey });
    const locations = await emulator.api.get('getUserLocations', { api_key: demo.apiKey });
    // Assess
    const positions = live.body.vehicles as { latitude: string; longitude: string; gps_datetime: string }[];
    expect(positions.map((vehicle) => vehicle.latitude !== null)).toEqual([true, true, true]);
    for (const [i, a] of positions.entries()) {
      expect(Date.parse(`${a.gps_datetime}Z`)).toBeLessThanOrEqual(Date.now());
      for (const b of positions.slice(i + 1)) {
        expect(
          distanceKm({ lat: Number(a.latitude), lng: Number(a.longitude) }, { lat: Number(b.latitude), lng: Number(b.longitude) }),
        ).toBeGreaterThan(1);
      }
    }
    const polygon = (locations.body.locations as { location_type: string; points: unknown }[]).find(
      (location) => location.location_type === 'polygon',
    );
    const points = typeof polygon?.points === 'string' ? JSON.parse(polygon.points) : polygon?.points;
    for (const point of points as { lat: number; lng: number }[]) {
      expect(String(point.lat)).toMatch(/^-?\d+\.\d{1,7}$/);
      expect(String(point.lng)).toMatch(/^-?\d+\.\d{1,7}$/);
    }
  });

  it('shows every zone, speeding, trip and fill event type in getEvents', async () => {
    // Act
    const feed = await emulator.api.get('getEvents', { api_key: demo.apiKey, limit: 1000 });
    // Assess
    const types = new Set((feed.body.events as { type: string }[]).map((event) => event.type));
    const expected = ['geofence.entered', 'geofence.exited', 'no_go.entered', 'no_go.exited', 'speeding.started', 'speeding.ended'];
    expect([...types]).toEqual(expect.arrayContaining([...expected, 'trip.started', 'trip.completed', 'fuel.filled']));
  });
});
