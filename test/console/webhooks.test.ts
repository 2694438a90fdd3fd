import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { eventually, expectAHealthyPage, screenshot } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';
import { type Listening, listenOnLoopback } from '../support/loopback.ts';
import { givenDeliveryAttempt } from '../support/webhook-builders.ts';
import { TEST_DELIVERY_SETTINGS } from '../support/webhooks.ts';

describe('the webhooks page', () => {
  // An emulator that sends what its operations queue (a redelivery), as npm start does, without reading the table's stream.
  const console = useConsole({ emulatorEnv: () => ({ ...TEST_DELIVERY_SETTINGS, EMULATOR_WEBHOOKS: 'queue' }) });
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

  it('redelivers an event from its attempts, then shows the new attempt', async () => {
    // Prepare: an endpoint whose first attempt at a real event of the fleet failed
    const tab = await addEndpoint('Redelivered');
    // added once the page lists it (the click only sends the request)
    await eventually(() => tab.page.getByRole('button', { name: 'Deliveries of Redelivered' }).count()).toBe(1);
    const key = { api_key: console.fleet.user.key };
    const { webhooks } = (await callOperation('getWebhooks', key)).body;
    const webhook = webhooks.find((candidate) => candidate.description === 'Redelivered');
    const [event] = (
      await callOperation('getEvents', { ...key, types: 'trip.completed', vehicle_uid: console.fleet.parkedTruck.vehicleUid })
    ).body.events;
    if (!webhook || !event) throw new Error('the fleet has no trip.completed to redeliver, or the endpoint was not added');
    await givenDeliveryAttempt(console.fleet.user, webhook.webhook_uid, {
      eventId: event.event_id,
      eventType: 'trip.completed',
      statusCode: 503,
      state: 'failed',
      nextAttemptAt: null,
    });
    await tab.page.getByRole('button', { name: 'Deliveries of Redelivered' }).click();
    const attempts = tab.page.getByRole('table', { name: 'Delivery attempts, newest first' });
    await eventually(() => attempts.getByRole('row').count()).toBe(2);

    // Act
    await tab.page.getByRole('button', { name: `Redeliver ${event.event_id}` }).click();

    // Assess
    await eventually(() => attempts.getByRole('row').count()).toBe(3);
    expect(await attempts.getByRole('row').nth(1).innerText()).toMatch(
      new RegExp(`trip\\.completed ${event.event_id}\\s+\\d+\\s+204\\s+\\d+ ms\\s+HTTP 204\\s+delivered`),
    );
    expect(await attempts.getByRole('row').nth(2).innerText()).toMatch(/\s503\s.*failed/);
    await eventually(() => tab.page.getByRole('status').first().innerText()).toBe(`Event ${event.event_id} redelivered.`);
    expect(received).toContain(event.event_id);
    await screenshot(tab.page, 'webhooks-redelivered');
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
