import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { type BasemapServer, givenBasemapServer } from '../support/basemap-server.ts';
import { type ConsoleTab, eventually, expectAHealthyPage, expectNoProblems, screenshot } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';
import { aPositionRecord, CLIENT, ingest } from '../support/position-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';

const LIVE_POLL_MS = 15_000;

/** Where the fleet's truck last was, as getLiveData answers it. */
async function latestFix(key: string, imei: string): Promise<Fix> {
  const { vehicles } = (await callOperation('getLiveData', { api_key: key })).body;
  const vehicle = vehicles.find((candidate) => candidate.imei === imei);
  return { latitude: Number(vehicle?.latitude), longitude: Number(vehicle?.longitude) };
}

type Fix = { latitude: number; longitude: number };

/** How far (degrees, the larger of both axes) the map's centre is from a fix: under 1e-4 is within about 10 m. */
const offCentre = async (tab: ConsoleTab, fix: Fix): Promise<number> => {
  const [lng, lat] = String(await tab.page.locator('.map').getAttribute('data-center'))
    .split(',')
    .map(Number);
  return Math.max(Math.abs(Number(lng) - fix.longitude), Math.abs(Number(lat) - fix.latitude));
};

describe('the live map', () => {
  const console = useConsole();

  it('shows every vehicle on the map and in the list, each with its status', async () => {
    // Act
    const tab = await console.open('#/map');

    // Assess
    const list = tab.page.getByRole('list', { name: 'Vehicles' });
    await eventually(() => list.getByRole('button').allInnerTexts()).toEqual([
      expect.stringMatching(/Truck 01 \(CA 123-456\)\s+stopped/),
      expect.stringMatching(/Truck 02 \(GP 22-22\)\s+moving, \d+ km\/h/),
      expect.stringMatching(/Truck 03 \(ND 33-33\)\s+offline/),
    ]);
    await eventually(() => tab.page.locator('.map').getAttribute('data-vehicles')).toBe('3');
    await eventually(() => tab.page.getByText('3 vehicles: 1 moving, 1 stopped, 1 offline').count()).toBe(1);
    await eventually(() => tab.page.locator('.map').getAttribute('data-shown')).toMatch(/^\d+$/);
    await expectAHealthyPage(tab, 'Live map', 'live-map');
  });

  it("names the user's zones, the towns and the degrees around the fleet on the offline basemap, reaching nothing beyond it", async () => {
    // Prepare
    await givenUserLocation(console.fleet.user, { description: 'Depot', radius: 0.4 });
    await givenUserLocation(console.fleet.user, {
      description: 'Client yard',
      latitude: CLIENT.lat,
      longitude: CLIENT.lng,
      radius: 0.3,
      no_go: 1,
    });
    const requested: string[] = [];

    // Act
    const tab = await console.open('#/map');
    tab.page.on('request', (request) => requested.push(new URL(request.url()).origin));

    // Assess
    const labels = (kind: string) => tab.page.locator(`.${kind}-label`).allInnerTexts();
    await eventually(() => labels('zone')).toEqual(expect.arrayContaining(['Depot', 'Client yard']));
    await eventually(() => labels('place')).toContain('Johannesburg');
    await eventually(() => labels('grid')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d+\.\d+°E$/), expect.stringMatching(/^\d+\.\d+°S$/)]),
    );
    await screenshot(tab.page, 'live-map-city');
    await tab.page.locator('.map canvas').hover();
    await tab.page.mouse.wheel(0, 2400);
    await eventually(() => labels('place')).toEqual(expect.arrayContaining(['Johannesburg', 'Randburg']));
    await screenshot(tab.page, 'live-map-region');
    expect([...new Set(requested)]).toEqual([console.origin]);
  });

  it('narrows the list to the vehicles the search names', async () => {
    // Prepare
    const tab = await console.open('#/map');
    const list = tab.page.getByRole('list', { name: 'Vehicles' });
    await eventually(() => list.getByRole('button').count()).toBe(3);

    // Act
    await tab.page.getByLabel('Search vehicles').fill('gp 22');

    // Assess
    await eventually(() => list.getByRole('button').allInnerTexts()).toEqual([expect.stringContaining('Truck 02')]);
  });

  it('centres on a vehicle chosen in the list and shows its details', async () => {
    // Prepare
    const tab = await console.open('#/map');

    // Act
    await tab.page.getByRole('button', { name: /Truck 01/ }).click();

    // Assess
    await eventually(() => tab.page.getByRole('button', { name: /Truck 01/ }).getAttribute('aria-pressed')).toBe('true');
    await eventually(() => tab.page.locator('.maplibregl-popup').innerText()).toContain('Truck 01');
    await eventually(() => tab.page.getByRole('link', { name: 'Trips and replay' }).count()).toBe(1);
  });

  it('keeps the followed vehicle centred as its position changes', async () => {
    // Prepare: Truck 02 chosen and followed, on a clock the test moves
    const tab = await console.open('#/map');
    await tab.page.clock.install();
    await tab.page.reload();
    await tab.page.getByRole('button', { name: /Truck 02/ }).click();
    await tab.page.getByLabel('Follow the selected vehicle').check();
    const { imei } = console.fleet.movingTruck;
    const last = await latestFix(console.fleet.user.key, imei);
    await eventually(() => offCentre(tab, last)).toBeLessThan(1e-4);
    const moved = { latitude: last.latitude - 0.02, longitude: last.longitude + 0.01 };

    // Act: it reports from further on, and the next poll reads it
    await ingest([aPositionRecord(imei, new Date(Date.now() - 5_000).toISOString(), { ...moved, speed: 48 })]);
    await tab.page.clock.runFor(LIVE_POLL_MS + 1_000);

    // Assess
    await eventually(async () => {
      await tab.page.clock.runFor(200);
      return offCentre(tab, moved);
    }).toBeLessThan(1e-4);
    expect(await tab.page.getByRole('button', { name: /Truck 02/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('reads the live data again every 15 seconds while shown, without reloading', async () => {
    // Prepare
    const tab = await console.open('#/map');
    await tab.page.clock.install();
    await tab.page.reload();
    await eventually(() => tab.page.getByRole('button', { name: /Truck 02/ }).count()).toBe(1);
    let polls = 0;
    await tab.page.route('**/api/getLiveData*', async (route) => {
      polls++;
      await route.continue();
    });

    // Act
    await tab.page.clock.runFor(16_000);

    // Assess
    await eventually(() => polls).toBe(1);
    await eventually(() => tab.page.getByRole('button', { name: /Truck 02/ }).count()).toBe(1);
  });

  it('fits a phone screen, the list above the map', async () => {
    // Act
    const tab = await console.open('#/map', { phone: true });

    // Assess
    await eventually(() => tab.page.getByRole('button', { name: /Truck 03/ }).count()).toBe(1);
    expect(await tab.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await expectAHealthyPage(tab, 'Live map', 'live-map-phone');
  });

  it('says what went wrong when the live data cannot be read', async () => {
    // Prepare
    const tab = await console.open('#/map');
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
  });
});

describe('the live map on a configured basemap at another origin', () => {
  let basemap: BasemapServer;
  beforeAll(async () => {
    basemap = await givenBasemapServer();
  });
  afterAll(() => basemap.close());
  const console = useConsole({ emulatorEnv: () => ({ CONSOLE_MAP_STYLE: basemap.styleUrl }) });

  it('draws that style and its tiles, the CSP allowing their origin and refusing nothing', async () => {
    // Act
    const tab = await console.open('#/map');

    // Assess
    await eventually(() => basemap.requested.filter((path) => path.startsWith('/tiles/')).length).toBeGreaterThan(0);
    expect(basemap.requested[0]).toBe('/style.json');
    await eventually(() => tab.page.locator('.map').getAttribute('data-shown')).toMatch(/^\d+$/);
    expect(await tab.page.getByLabel('Basemap').inputValue()).toBe('amazon');
    expectNoProblems(tab);
  });
});
