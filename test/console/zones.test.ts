import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { eventually, expectAHealthyPage } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';

/** Clicks the map at fractions of its width and height. */
async function clickMap(page: Page, points: [number, number][]): Promise<void> {
  const box = await page.getByRole('region', { name: /^Map of the zones/ }).boundingBox();
  if (!box) throw new Error('the map is not on the page');
  for (const [x, y] of points) await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
}

describe('the zones page', () => {
  const console = useConsole();
  const zonesOf = async () =>
    (await callOperation('getUserLocations', { api_key: console.fleet.user.key })).body.locations as Record<string, unknown>[];

  const openZones = async () => {
    const tab = await console.open('#/zones');
    await eventually(() => tab.page.getByRole('table', { name: 'Zones' }).count()).toBe(1);
    return tab;
  };

  it('draws a circle zone with a speed limit and saves it', async () => {
    // Prepare
    const tab = await openZones();

    // Act
    await tab.page.getByLabel('Zone name').fill('School zone');
    await tab.page.getByLabel('Radius (km)').fill('0.3');
    await tab.page.getByLabel('Speed limit (km/h, 0 for none)').fill('40');
    await clickMap(tab.page, [[0.5, 0.5]]);
    await tab.page.getByRole('button', { name: 'Save zone' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('row', { name: /School zone/ }).innerText()).toMatch(
      /School zone\s+circle, 0\.3 km\s+40 km\/h\s+no\s+no/,
    );
    expect(await zonesOf()).toContainEqual(
      expect.objectContaining({ description: 'School zone', location_type: 'point', radius: 0.3, speed: 40, no_go: 0 }),
    );
    await expectAHealthyPage(tab, 'Zones', 'zones');
  });

  it('draws a no-go polygon from clicked vertices', async () => {
    // Prepare
    const tab = await openZones();

    // Act
    await tab.page.getByLabel('Shape').selectOption('polygon');
    await tab.page.getByLabel('Zone name').fill('Quarry');
    await tab.page.getByLabel('No-go zone').check();
    await clickMap(tab.page, [
      [0.3, 0.3],
      [0.7, 0.3],
      [0.5, 0.7],
    ]);
    await tab.page.getByRole('button', { name: 'Save zone' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('row', { name: /Quarry/ }).innerText()).toMatch(/Quarry\s+polygon\s+none\s+yes/);
    const quarry = (await zonesOf()).find((zone) => zone.description === 'Quarry');
    expect(JSON.parse(String(quarry?.points))).toHaveLength(3);
  });

  it('edits a zone and deletes it', async () => {
    // Prepare
    await callOperation('addUserLocation', {
      api_key: console.fleet.user.key,
      description: 'Yard',
      latitude: -26.2,
      longitude: 28.04,
      radius: 1,
    });
    const tab = await openZones();

    // Act
    await tab.page.getByRole('button', { name: 'Edit Yard' }).click();
    await tab.page.getByLabel('Zone name').fill('Back yard');
    await tab.page.getByLabel('Push notifications only').check();
    await tab.page.getByRole('button', { name: 'Save zone' }).click();
    await eventually(() => tab.page.getByRole('row', { name: /Back yard/ }).innerText()).toMatch(
      /Back yard\s+circle, 1 km\s+none\s+no\s+yes/,
    );
    await tab.page.getByRole('button', { name: 'Delete Back yard' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('row', { name: /Back yard/ }).count()).toBe(0);
    expect((await zonesOf()).map((zone) => zone.description)).not.toContain('Back yard');
  });

  it('asks for the centre before saving a circle', async () => {
    // Prepare
    const tab = await openZones();

    // Act
    await tab.page.getByLabel('Zone name').fill('Nowhere');
    await tab.page.getByRole('button', { name: 'Save zone' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('alert').innerText()).toBe('Error: click the map to place the centre first');
  });
});
