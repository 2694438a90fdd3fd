import { describe, it } from 'vitest';
import { screenshot } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';

describe('scratch', () => {
  const c = useConsole();
  it('looks', async () => {
    const tab = await c.open(`#/trips?vehicle=${c.fleet.parkedTruck.vehicleUid}`);
    await new Promise((r) => setTimeout(r, 3000));
    await tab.page.getByRole('button', { name: /^Replay trip of / }).click();
    await new Promise((r) => setTimeout(r, 3000));
    await tab.page.getByRole('button', { name: 'Play', exact: true }).click();
    await new Promise((r) => setTimeout(r, 1000));
    console.log(await tab.page.locator('main').innerText());
    console.log(await tab.page.getByLabel('Replay position').evaluate((e: any) => [e.value, e.max]));
    console.log(tab.problems);
    await screenshot(tab.page, 'scratch');
  }, 60000);
});
