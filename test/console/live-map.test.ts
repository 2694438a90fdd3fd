import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually, expectAHealthyPage, launchBrowser, openTab } from '../support/console-browser.ts';
import { type ConsoleFleet, givenConsoleFleet } from '../support/console-fleet.ts';
import { sessionScript, startConsoleOrigin } from '../support/console-origin.ts';
import type { Listening } from '../support/loopback.ts';

describe('the live map', () => {
  let browser: Browser;
  let origin: Listening;
  let fleet: ConsoleFleet;
  beforeAll(async () => {
    [browser, origin, fleet] = await Promise.all([launchBrowser(), startConsoleOrigin(inject('apiUrl')), givenConsoleFleet()]);
  });
  afterAll(async () => {
    await browser?.close();
    await origin?.close();
  });

  const openMap = async (options: { phone?: boolean } = {}, path = '#/map') => {
    const tab = await openTab(browser, options);
    await tab.context.addInitScript(sessionScript(fleet.user.key));
    await tab.page.goto(`${origin.origin}/console/${path}`);
    return tab;
  };

  it('shows every vehicle on the map and in the list, each with its status', async () => {
    // Act
    const tab = await openMap();

    // Assess
    const list = tab.page.getByRole('list', { name: 'Vehicles' });
    await eventually(() => list.getByRole('button').allInnerTexts()).toEqual([
      expect.stringMatching(/Truck 01 \(CA 123-456\)\s+stopped/),
      expect.stringMatching(/Truck 02 \(GP 22-22\)\s+moving, \d+ km\/h/),
      expect.stringMatching(/Truck 03 \(ND 33-33\)\s+offline/),
    ]);
    await eventually(() => tab.page.locator('.map').getAttribute('data-vehicles')).toBe('3');
    await eventually(() => tab.page.getByText('3 vehicles: 1 moving, 1 stopped, 1 offline').count()).toBe(1);
    await expectAHealthyPage(tab, 'Live map', 'live-map');
    await tab.context.close();
  });

  it('narrows the list to the vehicles the search names', async () => {
    // Prepare
    const tab = await openMap();
    const list = tab.page.getByRole('list', { name: 'Vehicles' });
    await eventually(() => list.getByRole('button').count()).toBe(3);

    // Act
    await tab.page.getByLabel('Search vehicles').fill('gp 22');

    // Assess
    await eventually(() => list.getByRole('button').allInnerTexts()).toEqual([expect.stringContaining('Truck 02')]);
    await tab.context.close();
  });

  it('centres on a vehicle chosen in the list and shows its details', async () => {
    // Prepare
    const tab = await openMap();

    // Act
    await tab.page.getByRole('button', { name: /Truck 01/ }).click();

    // Assess
    await eventually(() => tab.page.getByRole('button', { name: /Truck 01/ }).getAttribute('aria-pressed')).toBe('true');
    await eventually(() => tab.page.locator('.maplibregl-popup').innerText()).toContain('Truck 01');
    await eventually(() => tab.page.getByRole('link', { name: 'Trips and replay' }).count()).toBe(1);
    await tab.context.close();
  });

  it('fits a phone screen, the list above the map', async () => {
    // Act
    const tab = await openMap({ phone: true });

    // Assess
    await eventually(() => tab.page.getByRole('button', { name: /Truck 03/ }).count()).toBe(1);
    const width = await tab.page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    await expectAHealthyPage(tab, 'Live map', 'live-map-phone');
    await tab.context.close();
  });

  it('says what went wrong when the live data cannot be read', async () => {
    // Prepare
    const tab = await openMap();
    await tab.page.route('**/api/getLiveData*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ version: '1', result: 'error', error_msg: 'internal error' }),
      }),
    );

    // Act
    await tab.page.reload();

    // Assess
    await eventually(() => tab.page.getByRole('alert').innerText()).toBe('Error: internal error');
    await tab.context.close();
  });
});
