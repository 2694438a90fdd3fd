/**
 * One browser per test file, on the run's API emulator (the console and the API on one origin, as npm start serves
 * them), and signed-in tabs for the fleet's user: a person of the local provider signed in once per file. A file that
 * needs the console configured otherwise (a basemap) gives the environment of an emulator of its own.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { type ConsoleTab, launchBrowser, openTab } from './console-browser.ts';
import { type ConsoleFleet, givenConsoleFleet } from './console-fleet.ts';
import { sessionScript } from './console-session-script.ts';
import { type IsolatedEmulator, startIsolatedEmulator } from './isolated-emulator.ts';
import { givenSignedInPerson } from './sign-in.ts';

export interface ConsoleSession {
  readonly fleet: ConsoleFleet;
  readonly origin: string;
  /** a new signed-in tab at /console/<route> */
  open(route: string, options?: { phone?: boolean }): Promise<ConsoleTab>;
  /** a new tab at /console/<route>, signed in with another person's access token */
  openAs(accessToken: string, route: string): Promise<ConsoleTab>;
  /** a new tab that is not signed in */
  openSignedOut(route: string): Promise<ConsoleTab>;
}

export interface ConsoleSessionOptions {
  /** the environment of an emulator of this session's own (read when the session starts), e.g. CONSOLE_MAP_STYLE */
  emulatorEnv?: () => Record<string, string>;
}

export function useConsole({ emulatorEnv }: ConsoleSessionOptions = {}): ConsoleSession {
  let origin = inject('apiUrl');
  let emulator: IsolatedEmulator | undefined;
  let browser: Browser;
  let fleet: ConsoleFleet;
  let accessToken: string;
  const tabs: ConsoleTab[] = [];
  beforeAll(async () => {
    if (emulatorEnv) {
      emulator = await startIsolatedEmulator(emulatorEnv());
      origin = emulator.url;
    }
    [browser, fleet] = await Promise.all([launchBrowser(), givenConsoleFleet()]);
    accessToken = (await givenSignedInPerson(origin, fleet.user)).accessToken;
  });
  afterAll(async () => {
    await Promise.all(tabs.map((tab) => tab.context.close()));
    await browser?.close();
    await emulator?.stop();
  });
  const newTab = async (options: { phone?: boolean } = {}) => {
    const tab = await openTab(browser, options);
    tabs.push(tab);
    return tab;
  };
  const openSignedIn = async (token: string, route: string, options: { phone?: boolean } = {}) => {
    const tab = await newTab(options);
    await tab.context.addInitScript(sessionScript(token));
    await tab.page.goto(`${origin}/console/${route}`);
    return tab;
  };
  return {
    get fleet() {
      return fleet;
    },
    get origin() {
      return origin;
    },
    open: (route, options = {}) => openSignedIn(accessToken, route, options),
    openAs: (token, route) => openSignedIn(token, route),
    async openSignedOut(route) {
      const tab = await newTab();
      await tab.page.goto(`${origin}/console/${route}`);
      return tab;
    },
  };
}
