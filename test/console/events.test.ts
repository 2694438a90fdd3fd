import { describe, expect, it } from 'vitest';
import { eventually, expectAHealthyPage } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';
import { drive, ingest } from '../support/position-builders.ts';

describe('the events page', () => {
  const console = useConsole();

  it("shows the fleet's events newest first, each linking to the map at its place and time", async () => {
    // Act
    const tab = await console.open('#/events');

    // Assess
    const timeline = tab.page.getByRole('list', { name: 'Events, newest first' });
    await eventually(() => timeline.getByRole('listitem').count()).toBeGreaterThan(1);
    await eventually(() => timeline.getByText('trip.completed').count()).toBeGreaterThan(0);
    const link = timeline.getByRole('link', { name: 'Show trip.completed of Truck 01 on the map' }).first();
    await link.click();
    await eventually(() => tab.page.getByRole('heading', { level: 1 }).innerText()).toBe('Live map');
    expect(tab.page.url()).toMatch(/#\/map\?vehicle=\d+&lat=-?\d+(\.\d+)?&lng=-?\d+(\.\d+)?&at=/);
    await eventually(() => tab.page.locator('.maplibregl-popup').innerText()).toMatch(/^trip\.completed at \d{4}-\d\d-\d\d/);
  });

  it('filters by type and by vehicle', async () => {
    // Prepare
    const tab = await console.open('#/events');
    const timeline = tab.page.getByRole('list', { name: 'Events, newest first' });
    await eventually(() => timeline.getByRole('listitem').count()).toBeGreaterThan(0);

    // Act
    await tab.page.getByLabel('Event type').selectOption('trip.started');
    await tab.page.getByLabel('Vehicle').selectOption({ label: 'Truck 01 (CA 123-456)' });
    await tab.page.getByRole('button', { name: 'Show events' }).click();

    // Assess
    await eventually(async () => [...new Set(await timeline.locator('.type').allInnerTexts())]).toEqual(['trip.started']);
    expect(new Set(await timeline.locator('.vehicle').allInnerTexts())).toEqual(new Set(['Truck 01 (CA 123-456)']));
    await expectAHealthyPage(tab, 'Events', 'events');
  });

  it('follows new events as they happen, without reloading', async () => {
    // Prepare
    const tab = await console.open(`#/events?vehicle=${console.fleet.offlineTruck.vehicleUid}`);
    await tab.page.clock.install();
    await tab.page.reload();
    await eventually(() => tab.page.getByRole('status').first().innerText()).toMatch(/events|No events/);
    const timeline = tab.page.getByRole('list', { name: 'Events, newest first' });
    const before = await timeline.getByRole('listitem').count();

    // Act: the offline truck drives again
    const now = Date.now();
    const trip = drive(
      console.fleet.offlineTruck.imei,
      new Date(now - 40 * 60_000).toISOString(),
      10,
      { lat: -26.2, lng: 28.04 },
      { lat: -26.15, lng: 28.05 },
    );
    await ingest([
      ...trip.records,
      ...Array.from({ length: 20 }, (_, i) => ({
        ...trip.records.at(-1)!,
        gps_datetime: new Date(Date.parse(trip.stopTime) + (i + 1) * 60_000).toISOString(),
      })),
    ]);
    await tab.page.clock.runFor(16_000);

    // Assess
    await eventually(() => timeline.getByRole('listitem').count()).toBeGreaterThan(before);
  });

  it('says what went wrong when the feed cannot be read', async () => {
    // Prepare
    const tab = await console.open('#/events');
    await tab.page.route('**/api/getEvents*', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ version: '1', result: 'error', error_msg: 'since must be a date and time' }),
      }),
    );

    // Act
    await tab.page.getByRole('button', { name: 'Show events' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('alert').innerText()).toBe('Error: since must be a date and time');
  });
});
