import { describe, expect, inject, it } from 'vitest';
import { createLocalAccount } from '../../local/oidc/accounts.ts';
import { eventually, expectAHealthyPage, screenshot } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';

describe('signing in to the console', () => {
  const console = useConsole();
  const givenAccount = () =>
    createLocalAccount(console.fleet.user.userUid, `browser-${Date.now()}-${process.pid}@fleet.example`, `${inject('apiUrl')}/oidc`);

  it("asks a visitor to sign in, then shows the person's fleet after the provider's form", async () => {
    // Prepare
    const account = await givenAccount();
    const tab = await console.openSignedOut('#/map');
    await expectAHealthyPage(tab, 'Sign in', 'sign-in');

    // Act
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByLabel('E-mail address').fill(account.email);
    await tab.page.getByLabel('Password').fill(account.password);
    await screenshot(tab.page, 'sign-in-provider');
    await tab.page.getByRole('button', { name: 'Sign in' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('button', { name: /Truck 01/ }).count()).toBe(1);
    expect(tab.page.url()).toBe(`${console.origin}/console/#/map`);
    expect(await tab.page.evaluate<string>('JSON.stringify(Object.keys(localStorage).filter((key) => /session|token/.test(key)))')).toBe(
      '[]',
    );
  });

  it("signs out at the provider and comes back to the console's sign-in page, its session gone", async () => {
    // Prepare
    const tab = await console.open('#/map');
    await eventually(() => tab.page.getByRole('button', { name: /Truck 01/ }).count()).toBe(1);

    // Act
    await tab.page.getByRole('button', { name: 'Sign out' }).click();

    // Assess
    await eventually(() => tab.page.url()).toBe(`${console.origin}/console/`);
    await eventually(() => tab.page.getByRole('heading', { level: 1 }).innerText()).toBe('Sign in');
    expect(await tab.page.evaluate<string | null>("sessionStorage.getItem('fleet-console.session')")).toBeNull();
  });

  it("tells the person when the password is wrong, on the provider's form", async () => {
    // Prepare
    const account = await givenAccount();
    const tab = await console.openSignedOut('#/map');

    // Act
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByLabel('E-mail address').fill(account.email);
    await tab.page.getByLabel('Password').fill('not the password');
    await tab.page.getByRole('button', { name: 'Sign in' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('alert').count()).toBe(1);
    expect(tab.page.url()).toMatch(/\/oidc\//);
  });
});
