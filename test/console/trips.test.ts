import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventually, expectAHealthyPage } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';

describe('the trips page', () => {
  const console = useConsole();

  const openTrips = async () => {
    const tab = await console.open(`#/trips?vehicle=${console.fleet.parkedTruck.vehicleUid}`);
    await eventually(() => tab.page.getByRole('table', { name: /Trips of Truck 01/ }).count()).toBe(1);
    return tab;
  };

  it("lists the vehicle's trips of the date range, with where they went", async () => {
    // Act
    const tab = await openTrips();

    // Assess
    const rows = tab.page.getByRole('table', { name: /Trips of Truck 01/ }).getByRole('row');
    await eventually(() => rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    await expectAHealthyPage(tab, 'Trips and replay', 'trips');
  });

  it('replays a trip on the map beside its speed chart, and plays, pauses and changes speed', async () => {
    // Prepare
    const tab = await openTrips();

    // Act
    await tab.page.getByRole('button', { name: /^Replay trip of / }).click();
    await eventually(() => tab.page.getByRole('img', { name: /Speed over the trip/ }).count()).toBe(1);
    await tab.page.getByLabel('Replay speed').selectOption('300');
    await tab.page.getByRole('button', { name: 'Play', exact: true }).click();

    // Assess
    await eventually(async () => Number(await tab.page.getByLabel('Replay position').inputValue())).toBeGreaterThan(0);
    await tab.page.getByRole('button', { name: 'Pause', exact: true }).click();
    const paused = await tab.page.getByLabel('Replay position').inputValue();
    await tab.page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    expect(await tab.page.getByLabel('Replay position').inputValue()).toBe(paused);
    expect(await tab.page.getByRole('button', { name: 'Play', exact: true }).getAttribute('aria-pressed')).toBe('false');
    await expectAHealthyPage(tab, 'Trips and replay', 'trips-replay');
  });

  it('exports the trips as CSV and a trip as GPX', async () => {
    // Prepare
    const tab = await openTrips();
    await tab.page.getByRole('button', { name: /^Replay trip of / }).click();
    await eventually(() => tab.page.getByRole('button', { name: 'Export trip as GPX' }).count()).toBe(1);

    // Act
    const [csv] = await Promise.all([
      tab.page.waitForEvent('download'),
      tab.page.getByRole('button', { name: 'Export trips as CSV' }).click(),
    ]);
    const [gpx] = await Promise.all([
      tab.page.waitForEvent('download'),
      tab.page.getByRole('button', { name: 'Export trip as GPX' }).click(),
    ]);

    // Assess
    const csvText = readFileSync((await csv.path()) as string, 'utf8');
    expect(csvText.split('\r\n')[0]).toBe(
      'vehicle,trip_uid,start_time,stop_time,distance,duration,max_speed,start_location,stop_location,driver_name',
    );
    expect(csvText.split('\r\n')[1]).toMatch(/^Truck 01 \(CA 123-456\),\d+,/);
    const gpxText = readFileSync((await gpx.path()) as string, 'utf8');
    expect(gpxText).toContain('<gpx version="1.1"');
    expect(gpxText.match(/<trkpt /g)?.length).toBeGreaterThan(10);
  });

  it('says so when the range holds no trip', async () => {
    // Prepare
    const tab = await console.open(`#/trips?vehicle=${console.fleet.offlineTruck.vehicleUid}&from=2020-01-01&to=2020-01-02`);

    // Assess
    await eventually(() => tab.page.getByRole('status').first().innerText()).toMatch(/^0 trips of Truck 03/);
  });
});
