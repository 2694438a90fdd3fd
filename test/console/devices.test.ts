import { describe, expect, it } from 'vitest';
import { givenLiveState, givenUser, givenVehicle } from '../support/builders.ts';
import { eventually, expectAHealthyPage, screenshot } from '../support/console-browser.ts';
import { useConsole } from '../support/console-session.ts';
import { givenSignedInPerson } from '../support/sign-in.ts';

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
        `Truck 01 \\(CA 123-456\\)\\s+${console.fleet.parkedTruck.imei}\\s+` +
          `\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+-26\\.\\d{5}, 28\\.\\d{5}\\s+13\\.8 V`,
      ),
    );
    await table
      .getByRole('link', { name: /^-26\.\d+, 28\.\d+$/ })
      .first()
      .click();
    await eventually(() => tab.page.getByRole('heading', { level: 1 }).innerText()).toBe('Live map');
  });

  it("shows times in the signed-in user's GMT offset, which the person may change", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 330 });
    await givenLiveState(await givenVehicle(user, { name: 'Mumbai van', regNum: 'MH 01 AB 1234' }), {
      gpsDatetime: '2026-11-01T06:00:00.000Z',
    });
    const person = await givenSignedInPerson(console.origin, user);

    // Act
    const tab = await console.openAs(person.accessToken, '#/devices');

    // Assess
    const row = tab.page.getByRole('row', { name: /Mumbai van/ });
    await eventually(() => row.innerText()).toContain('2026-11-01 11:30:00');
    expect(await tab.page.getByLabel('Times in').inputValue()).toBe('');
    expect(await tab.page.getByLabel('Times in').locator('option:checked').innerText()).toBe('GMT+5:30 (your account)');
    await expect.poll(() => tab.page.getByText(person.email).count()).toBe(1);
    await screenshot(tab.page, 'devices-account-offset');
    await tab.page.getByLabel('Times in').selectOption('-120');
    await eventually(() => tab.page.getByRole('row', { name: /Mumbai van/ }).innerText()).toContain('2026-11-01 04:00:00');
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

  it('sets up a phone: a token shown once with its OsmAnd URL and QR code, then revoked', async () => {
    // Prepare
    const tab = await console.open('#/devices');
    await eventually(() => tab.page.getByRole('heading', { name: 'Device tokens' }).count()).toBe(1);

    // Act
    await tab.page.getByLabel('Vehicle for the phone').selectOption({ label: 'Truck 02 (GP 22-22)' });
    await tab.page.getByRole('button', { name: 'Make a device token' }).click();

    // Assess
    await eventually(() => tab.page.getByRole('textbox', { name: 'OsmAnd URL' }).count()).toBe(1);
    const token = await tab.page.getByRole('textbox', { name: 'Device token' }).inputValue();
    expect(await tab.page.getByRole('textbox', { name: 'OsmAnd URL' }).inputValue()).toContain(token);
    expect(await tab.page.getByRole('img', { name: 'QR code of the OsmAnd URL for Truck 02 (GP 22-22)' }).getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );
    await screenshot(tab.page, 'devices-phone-set-up');
    const revoke = tab.page.getByRole('button', { name: `Revoke token ${token.slice(0, 8)}…` });
    await eventually(() => revoke.count()).toBe(1);
    await revoke.click();
    await eventually(() => tab.page.getByRole('button', { name: `Revoke token ${token.slice(0, 8)}…` }).count()).toBe(0);
  });
});
