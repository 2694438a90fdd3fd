import { describe, inject, it } from 'vitest';
import { launchBrowser, openTab, screenshot } from '../support/console-browser.ts';
import { givenConsoleFleet } from '../support/console-fleet.ts';
import { sessionScript, startConsoleOrigin } from '../support/console-origin.ts';

describe('scratch', () => {
  it('looks', async () => {
    const [browser, origin, fleet] = await Promise.all([launchBrowser(), startConsoleOrigin(inject('apiUrl')), givenConsoleFleet()]);
    const tab = await openTab(browser);
    tab.page.on('requestfailed', (r) => console.log('FAILED', r.url(), r.failure()?.errorText));
    tab.page.on('response', (r) => { if (r.status() >= 400) console.log('STATUS', r.status(), r.url()); });
    await tab.context.addInitScript(sessionScript(fleet.user.key));
    await tab.page.goto(`${origin.origin}/console/#/map`);
    await new Promise((r) => setTimeout(r, 5000));
    console.log(await tab.page.locator('main').innerText());
    console.log(tab.problems);
    await screenshot(tab.page, 'scratch');
    await browser.close();
    await origin.close();
  }, 60000);
});
