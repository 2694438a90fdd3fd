import { describe, expect, it } from 'vitest';
import { eventually, expectAHealthyPage } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';

describe('the devices page', () => {
  const console = useConsole();

  it("shows each vehicle's last point, linking to the map", async () => {
    // Act
    const tab = await console.open('#/devices');

    // Assess
    const table = tab.page.getByRole('table', { name: /last point/ });
    await eventually(() => table.getByRole('row').count()).toBe(4);
    expect(await table.getByRole('row', { name: /Truck 01/ }).innerText()).toMatch(
      new RegExp(
        `Truck 01 \\(CA 123-456\\)\\s+${console.fleet.parkedTruck.imei}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+-26\\.\\d{5}, 28\\.\\d{5}\\s+13\\.8 V`,
      ),
    );
    await table
      .getByRole('link', { name: /^-26\.\d+, 28\.\d+$/ })
      .first()
      .click();
    await eventually(() => tab.page.getByRole('heading', { level: 1 }).innerText()).toBe('Live map');
  });

  it("counts the faults of a vehicle's points over the last day", async () => {
    // Prepare
    const tab = await console.open('#/devices');

    // Act
    await tab.page.getByRole('button', { name: 'Check faults of Truck 01 (CA 123-456)' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('row', { name: /Truck 01/ }).innerText()).toMatch(/none in \d+ points$/);
    await expectAHealthyPage(tab, 'Devices', 'devices');
  });
});
