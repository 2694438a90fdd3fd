/**
 * `npm run bench -- console`: the console in Debian's Chromium (playwright-core, WebGL by SwiftShader: no GPU), on the
 * bench's local stack. With 10 and with 1,000 vehicles (live states stored as the pipeline stores them, spread over
 * 40 km around Johannesburg): the time from navigation to the first frame that shows the fleet on the map, the
 * frame times while the map zooms in and out, and the API requests an idle live-map tab makes in a minute; and the
 * size of each built file.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { givenLiveState, givenUser, givenVehicle } from '../../test/support/builders.ts';
import { launchBrowser } from '../../test/support/console-browser.ts';
import { sessionScript } from '../../test/support/console-session-script.ts';
import { givenSignedInPerson } from '../../test/support/sign-in.ts';
import { buildConsole, CONSOLE_DIST } from '../build-console.ts';
import { type BenchSize, percentile, type Row, round } from './report.ts';

/** the figures' sizes, and the least that still runs every step (test/project/benches.whole-table.test.ts) */
const plans = {
  full: { fleets: [10, 1_000], idleMs: 60_000, loads: 3 },
  smallest: { fleets: [10], idleMs: 2_000, loads: 1 },
} as const;

export const consoleNotes = [
  "time to fleet: navigation start to the first idle frame after the vehicles were drawn (the live map's data-shown mark), " +
    `the console, its config, the offline basemap and getLiveData all loaded from 127.0.0.1; median of ${plans.full.loads} fresh tabs`,
  'frame ms: requestAnimationFrame intervals while the map zooms in 3 levels and out again (MapLibre clustering on); ' +
    'SwiftShader renders on the CPU, so a GPU does better',
  `idle requests/min: /api/ requests a visible live-map tab made over ${plans.full.idleMs / 1000} s after it showed the fleet ` +
    '(the live data is polled every 15 s; a hidden tab makes none)',
  'bundle: each file of console/dist as built (npm run build:console), raw and gzip-compressed',
];

/** A user with `size` vehicles, and a signed-in person's access token for it. */
async function givenFleet(apiUrl: string, size: number): Promise<string> {
  const user = await givenUser();
  const now = Date.now();
  // 10 at a time: DynamoDB Local answers within the clients' timeout.
  for (let start = 0; start < size; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, size - start) }, async (_, offset) => {
        const index = start + offset;
        const vehicle = await givenVehicle(user, { name: `Vehicle ${index + 1}` });
        const angle = index * 2.399;
        const distance = 0.36 * Math.sqrt((index + 1) / size);
        const fix = new Date(now - (index % 3) * 20 * 60_000).toISOString();
        await givenLiveState(vehicle, {
          latitude: -26.2 + distance * Math.sin(angle),
          longitude: 28.05 + distance * Math.cos(angle),
          speed: index % 2 ? 50 : 0,
          gpsDatetime: fix,
          lastResponse: fix,
        });
      }),
    );
  }
  return (await givenSignedInPerson(apiUrl, user)).accessToken;
}

async function timeToFleet(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForSelector('.map[data-shown]', { timeout: 60_000 });
  return Number(await page.locator('.map').getAttribute('data-shown'));
}

async function frameTimes(page: Page): Promise<number[]> {
  const canvas = page.locator('canvas.maplibregl-canvas');
  const box = await canvas.boundingBox();
  if (!box) return [];
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // Run in the page (a string: this file is compiled for Node, without the DOM's types).
  await page.evaluate(`{
    const times = (window.frameTimes = []);
    const tick = (now) => {
      times.push(now);
      if (times.length < 400) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }`);
  for (const delta of [-300, -300, -300, 300, 300, 300]) {
    await page.mouse.wheel(0, delta);
    await page.waitForTimeout(400);
  }
  const stamps = await page.evaluate<number[]>('window.frameTimes');
  return stamps.slice(1).map((stamp, index) => stamp - (stamps[index] ?? stamp));
}

export async function benchConsole(apiUrl: string, size: BenchSize = 'full'): Promise<{ rows: Row[]; sizes: string[] }> {
  const plan = plans[size];
  const built = await buildConsole();
  const browser = await launchBrowser();
  const rows: Row[] = [];
  try {
    for (const fleet of plan.fleets) {
      const accessToken = await givenFleet(apiUrl, fleet);
      const loads: number[] = [];
      let frames: number[] = [];
      let idleRequests = 0;
      for (let run = 0; run < plan.loads; run++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
        await context.addInitScript(sessionScript(accessToken));
        const page = await context.newPage();
        loads.push(await timeToFleet(page, `${apiUrl}/console/#/map`));
        if (run === 0) {
          frames = await frameTimes(page);
          let requests = 0;
          page.on('request', (request) => {
            if (new URL(request.url()).pathname.startsWith('/api/')) requests++;
          });
          await page.waitForTimeout(plan.idleMs);
          idleRequests = requests;
        }
        await context.close();
      }
      rows.push({
        fleet: `${fleet.toLocaleString('en')} vehicles`,
        'time to fleet ms (median)': round(percentile(loads, 50), 0),
        'frame ms p50': round(percentile(frames, 50), 1),
        'frame ms p95': round(percentile(frames, 95), 1),
        'idle requests/min': round((idleRequests * 60_000) / plan.idleMs, 1),
      });
    }
  } finally {
    await browser.close();
  }
  const sizes = Object.entries(built)
    .sort()
    .map(
      ([file, bytes]) =>
        `${file}: ${round(bytes / 1024, 1)} KiB (gzip ${round(gzipSync(readFileSync(join(CONSOLE_DIST, file))).length / 1024, 1)} KiB)`,
    );
  return { rows, sizes };
}
