/**
 * The console in a real browser: Debian's Chromium driven by playwright-core, launched once per test file, WebGL by
 * SwiftShader (no GPU here). Every page the tests open records what the browser refused or failed (CSP violations,
 * script errors, failed requests) so a test can assert there were none; screenshots go to test-artifacts/console/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/console/', import.meta.url));
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });

export interface ConsoleTab {
  page: Page;
  context: BrowserContext;
  /** CSP violations, uncaught errors and console errors seen so far */
  problems: string[];
  /**
   * requests that failed or were answered 400 or above: not problems by themselves (a map cancels what it no longer
   * needs), but what a console error such as MapLibre's AJAXError (logged by its minified class name) was about
   */
  failedRequests: string[];
}

/** A fresh tab (its own session storage) at `url`, at a desktop or phone width. */
export async function openTab(browser: Browser, { phone = false } = {}): Promise<ConsoleTab> {
  const context = await browser.newContext(
    phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 860 } },
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  const failedRequests: string[] = [];
  page.on('requestfailed', (request) => failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
  // Every refusal by the page's CSP, named by its directive and what it blocked (added through the DevTools protocol,
  // so the page's own CSP is untouched).
  await context.addInitScript(
    "document.addEventListener('securitypolicyviolation', (event) => " +
      "console.error('CSP violation: ' + event.effectiveDirective + ' refused ' + event.blockedURI))",
  );
  return { page, context, problems, failedRequests };
}

/** axe-core run in the page (evaluated through the DevTools protocol, so the page's CSP stays as served). */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<{ id: string; impact: string; help: string; nodes: string[] }[]>(`
    axe.run(document, { resultTypes: ['violations'] }).then((result) =>
      result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      })),
    )`);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.slice(0, 3).join(', ')}`);
}

/** A page settles in its own time (the map, the API): its assertions poll, up to a few seconds. */
export const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: false });
}

/** What every page must be: named by one heading, accessible, and free of refused or failed scripts. */
export async function expectAHealthyPage(tab: ConsoleTab, heading: string, name: string): Promise<void> {
  await eventually(() => tab.page.getByRole('heading', { level: 1, name: heading }).count()).toBe(1);
  await screenshot(tab.page, name);
  expect(await seriousAccessibilityViolations(tab.page)).toEqual([]);
  expectNoProblems(tab);
}

/** No CSP violation, uncaught error or console error; when there is one, the requests that failed say what it was about. */
export function expectNoProblems(tab: ConsoleTab): void {
  expect(tab.problems, `failed requests: ${tab.failedRequests.join('; ') || 'none'}`).toEqual([]);
}
