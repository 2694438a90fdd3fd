/** One browser and one console origin per test file, and a signed-in tab for the fleet's user. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { type ConsoleTab, launchBrowser, openTab } from './console-browser.ts';
import { type ConsoleFleet, givenConsoleFleet } from './console-fleet.ts';
import { sessionScript, startConsoleOrigin } from './console-origin.ts';
import type { Listening } from './loopback.ts';

export interface ConsoleSession {
  readonly fleet: ConsoleFleet;
  readonly origin: string;
  /** a new signed-in tab at /console/<route> */
  open(route: string, options?: { phone?: boolean }): Promise<ConsoleTab>;
}

export function useConsole(): ConsoleSession {
  let browser: Browser;
  let origin: Listening;
  let fleet: ConsoleFleet;
  const tabs: ConsoleTab[] = [];
  beforeAll(async () => {
    [browser, origin, fleet] = await Promise.all([launchBrowser(), startConsoleOrigin(inject('apiUrl')), givenConsoleFleet()]);
  });
  afterAll(async () => {
    await Promise.all(tabs.map((tab) => tab.context.close()));
    await browser?.close();
    await origin?.close();
  });
  return {
    get fleet() {
      return fleet;
    },
    get origin() {
      return origin.origin;
    },
    async open(route, options = {}) {
      const tab = await openTab(browser, options);
      tabs.push(tab);
      await tab.context.addInitScript(sessionScript(fleet.user.key));
      await tab.page.goto(`${origin.origin}/console/${route}`);
      return tab;
    },
  };
}
