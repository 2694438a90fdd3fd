import { describe, it } from 'vitest';
import { api } from '../support/api.ts';
import { screenshot } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';

describe('scratch', () => {
  const c = useConsole();
  it('looks', async () => {
    const tab = await c.open('#/keys');
    await new Promise((r) => setTimeout(r, 3000));
    await tab.page.getByRole('button', { name: 'Create API key' }).click();
    await new Promise((r) => setTimeout(r, 1500));
    const key = await tab.page.getByRole('textbox', { name: 'New API key' }).inputValue();
    await tab.page.getByRole('button', { name: `Lock key ${key.slice(0, 8)}` }).click();
    await new Promise((r) => setTimeout(r, 1500));
    console.log((await api.get('getVehicles', { api_key: key })).body);
    await tab.page.getByRole('button', { name: `Unlock key ${key.slice(0, 8)}` }).click();
    await new Promise((r) => setTimeout(r, 1500));
    console.log((await api.get('getVehicles', { api_key: key })).body);
    console.log(await tab.page.locator('main').innerText());
    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    await new Promise((r) => setTimeout(r, 3000));
    console.log(tab.page.url(), await tab.page.locator('body').innerText());
    await screenshot(tab.page, 'scratch');
  }, 60000);
});
