import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { eventually, expectAHealthyPage } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';

describe('the API keys page', () => {
  const console = useConsole();

  const createKey = async () => {
    const tab = await console.open('#/keys');
    await eventually(() => tab.page.getByRole('table', { name: 'Your API keys' }).count()).toBe(1);
    await tab.page.getByLabel('Key description').fill('Dispatch integration');
    await tab.page.getByRole('button', { name: 'Create API key' }).click();
    await eventually(() => tab.page.getByRole('textbox', { name: 'New API key' }).count()).toBe(1);
    const key = await tab.page.getByRole('textbox', { name: 'New API key' }).inputValue();
    return { tab, key, prefix: key.slice(0, 8) };
  };

  it('creates a key, shows it once, and the key works on the API', async () => {
    // Act
    const { tab, key } = await createKey();

    // Assess
    expect((await api.get('getVehicles', { api_key: key })).status).toBe(200);
    await eventually(() => tab.page.getByRole('table', { name: 'Your API keys' }).getByRole('row').count()).toBeGreaterThan(2);
    await expectAHealthyPage(tab, 'API keys', 'api-keys');
    await tab.page.reload();
    await eventually(() => tab.page.getByRole('table', { name: 'Your API keys' }).count()).toBe(1);
    expect(await tab.page.getByRole('textbox', { name: 'New API key' }).count()).toBe(0);
  });

  it('locks a key, which the API then refuses, and unlocks it', async () => {
    // Prepare
    const { tab, key, prefix: name } = await createKey();

    // Act
    await tab.page.getByRole('button', { name: `Lock key ${name}` }).click();
    await eventually(() => tab.page.getByRole('button', { name: `Unlock key ${name}` }).count()).toBe(1);
    const whileLocked = await api.get('getVehicles', { api_key: key });
    await tab.page.getByRole('button', { name: `Unlock key ${name}` }).click();
    await eventually(() => tab.page.getByRole('button', { name: `Lock key ${name}` }).count()).toBe(1);

    // Assess
    expect(whileLocked.body.error_msg).toBe('api key locked');
    await eventually(async () => (await api.get('getVehicles', { api_key: key })).status).toBe(200);
  });

  it('deletes a key', async () => {
    // Prepare
    const { tab, key, prefix: name } = await createKey();

    // Act
    await tab.page.getByRole('button', { name: `Delete key ${name}` }).click();

    // Assess
    await eventually(() => tab.page.getByRole('button', { name: `Delete key ${name}` }).count()).toBe(0);
    expect((await api.get('getVehicles', { api_key: key })).status).toBe(401);
  });
});
