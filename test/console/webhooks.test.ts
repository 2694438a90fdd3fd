import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, expectAHealthyPage } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';
import { type Listening, listenOnLoopback } from '../support/loopback.ts';

describe('the webhooks page', () => {
  const console = useConsole();
  let receiver: Listening;
  const received: string[] = [];
  beforeAll(async () => {
    receiver = await listenOnLoopback(
      createServer((request, response) => {
        received.push(String(request.headers['webhook-id']));
        response.writeHead(204).end();
      }),
    );
  });
  afterAll(() => receiver?.close());

  const addEndpoint = async (description: string) => {
    const tab = await console.open('#/webhooks');
    await eventually(() => tab.page.getByRole('group', { name: /Vehicles/ }).count()).toBe(1);
    await tab.page.getByLabel('Endpoint URL').fill(`${receiver.origin}/fleet-events`);
    await tab.page.getByLabel('Description').fill(description);
    await tab.page.getByLabel('trip.completed').check();
    await tab.page.getByLabel('Truck 01 (CA 123-456)').check();
    await tab.page.getByRole('button', { name: 'Add endpoint' }).click();
    return tab;
  };

  it('adds an endpoint with its types and vehicles, showing the secret once', async () => {
    // Act
    const tab = await addEndpoint('Dispatch board');

    // Assess
    await eventually(() => tab.page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue()).toMatch(/^whsec_/);
    const row = tab.page.getByRole('row', { name: /Dispatch board/ });
    await eventually(() => row.innerText()).toMatch(/trip\.completed\s+Truck 01 \(CA 123-456\)\s+enabled/);
    await expectAHealthyPage(tab, 'Webhooks', 'webhooks');
    await tab.page.reload();
    await eventually(() => tab.page.getByRole('row', { name: /Dispatch board/ }).count()).toBe(1);
    expect(await tab.page.getByRole('textbox', { name: 'Signing secret', exact: true }).count()).toBe(0);
  });

  it('sends a test and shows the attempt with its status, latency and answer', async () => {
    // Prepare
    const tab = await addEndpoint('Test target');
    await eventually(() => tab.page.getByRole('button', { name: 'Send test to Test target' }).count()).toBe(1);

    // Act
    await tab.page.getByRole('button', { name: 'Send test to Test target' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('status').first().innerText()).toMatch(/^Test sent: 204 in \d+ ms\.$/);
    const attempts = tab.page.getByRole('table', { name: 'Delivery attempts, newest first' });
    await eventually(() => attempts.getByRole('row').nth(1).innerText()).toMatch(
      /webhook\.test evt_\w+\s+1\s+204\s+\d+ ms\s+HTTP 204\s+delivered/,
    );
    expect(received).toHaveLength(1);
    await expectAHealthyPage(tab, 'Webhooks', 'webhooks-deliveries');
  });

  it('rotates the secret, showing the new one once', async () => {
    // Prepare
    const tab = await addEndpoint('Rotated');
    const first = await (async () => {
      await eventually(() => tab.page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue()).toMatch(/^whsec_/);
      return tab.page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue();
    })();

    // Act
    await tab.page.getByRole('button', { name: 'Rotate secret of Rotated' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('textbox', { name: 'New signing secret' }).inputValue()).toMatch(/^whsec_/);
    expect(await tab.page.getByRole('textbox', { name: 'New signing secret' }).inputValue()).not.toBe(first);
  });

  it('deletes an endpoint', async () => {
    // Prepare
    const tab = await addEndpoint('Short lived');
    await eventually(() => tab.page.getByRole('row', { name: /Short lived/ }).count()).toBe(1);

    // Act
    await tab.page.getByRole('button', { name: 'Delete Short lived' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('row', { name: /Short lived/ }).count()).toBe(0);
    await eventually(() => tab.page.getByRole('status').first().innerText()).toBe('Endpoint Short lived deleted.');
  });

  it('says why an endpoint is refused', async () => {
    // Prepare
    const tab = await console.open('#/webhooks');
    await eventually(() => tab.page.getByRole('group', { name: /Vehicles/ }).count()).toBe(1);

    // Act
    await tab.page.getByLabel('Endpoint URL').fill('ftp://example.com/x');
    await tab.page.getByRole('button', { name: 'Add endpoint' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('alert').count()).toBe(1);
    expect(await tab.page.getByRole('alert').innerText()).toMatch(/^Error: /);
  });
});
