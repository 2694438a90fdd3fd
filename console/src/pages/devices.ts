/**
 * Devices: set up a phone (a device token made and shown once, with its OsmAnd URL and a QR code of it), revoke a token;
 * each vehicle's last point, and the faults its device's points had over the last day (getPositions' `ignored`).
 */
import { get, post } from '../api.ts';
import { fromGmt, wallTime } from '../time.ts';
import { type LiveVehicle, type Position, vehicleLabel } from '../types.ts';
import { field, h, pageFrame, shownOnce, statusLine, submitted, table } from '../ui.ts';

interface DeviceToken {
  device_token_uid: number | string;
  vehicle_uid: number | string;
  /** null for tokens the CLI made before prefixes were kept */
  prefix: string | null;
  created_datetime: string;
}

const tokenName = (token: DeviceToken): string => (token.prefix ? `${token.prefix}…` : `#${token.device_token_uid}`);

export async function devicesPage(main: HTMLElement): Promise<() => void> {
  const status = statusLine();
  const vehicleSelect = h('select', {});
  const once = h('div', { 'aria-live': 'polite' });
  const tokens = h('section', { 'aria-label': 'Device tokens' });
  const lastPoints = h('section', { 'aria-label': 'Last points' });
  const form = h(
    'form',
    { class: 'card', onsubmit: submitted(() => setUpPhone()) },
    h('h2', {}, 'Set up a phone'),
    h('p', {}, 'Makes a device token for the vehicle: enter the URL in OsmAnd (online tracking) or scan its QR code.'),
    field('Vehicle for the phone', vehicleSelect),
    h('button', { type: 'submit' }, 'Make a device token'),
  );
  pageFrame(main, 'Devices', status.element, form, once, tokens, lastPoints);
  let vehicles: LiveVehicle[] = [];
  const nameOf = (uid: number | string) => {
    const vehicle = vehicles.find((candidate) => candidate.vehicle_uid === String(uid));
    return vehicle ? vehicleLabel(vehicle) : `Vehicle ${uid}`;
  };

  const refreshTokens = async () => {
    try {
      const answer = await get<{ device_tokens: DeviceToken[] }>('getDeviceTokens');
      tokens.replaceChildren(
        h('h2', {}, 'Device tokens'),
        answer.device_tokens.length === 0
          ? h('p', {}, 'No device tokens yet.')
          : table(
              'Device tokens',
              ['Vehicle', 'Token', 'Created', ''],
              answer.device_tokens.map((token) => [
                nameOf(token.vehicle_uid),
                tokenName(token),
                token.created_datetime,
                h('button', { type: 'button', class: 'danger', onclick: () => revoke(token) }, `Revoke token ${tokenName(token)}`),
              ]),
            ),
      );
    } catch (error) {
      tokens.replaceChildren(
        h('h2', {}, 'Device tokens'),
        h('p', { class: 'status error', role: 'alert' }, `Error: ${(error as Error).message}`),
      );
    }
  };
  const setUpPhone = async () => {
    status.loading('Making a device token…');
    try {
      const answer = await post<{ token: string; osmand_url: string }>('addDeviceToken', { vehicle_uid: vehicleSelect.value });
      // The QR code maker loads only when a phone is set up.
      const { default: qrcode } = await import('qrcode');
      const qr = await qrcode.toDataURL(answer.osmand_url, { margin: 1, width: 220 });
      once.replaceChildren(
        h(
          'div',
          { class: 'card' },
          h('h2', {}, `Phone for ${nameOf(vehicleSelect.value)}`),
          shownOnce('Device token', answer.token),
          shownOnce('OsmAnd URL', answer.osmand_url),
          h('img', { src: qr, alt: `QR code of the OsmAnd URL for ${nameOf(vehicleSelect.value)}`, width: 220, height: 220 }),
        ),
      );
      status.done('Device token made: it is shown only this once.');
      await refreshTokens();
    } catch (error) {
      status.error(error);
    }
  };
  const revoke = async (token: DeviceToken) => {
    status.loading('Revoking…');
    try {
      await post('deleteDeviceToken', { device_token_uid: token.device_token_uid });
      status.done(`Token ${tokenName(token)} revoked.`);
      await refreshTokens();
    } catch (error) {
      status.error(error);
    }
  };
  const checkFaults = async (vehicle: LiveVehicle, cell: HTMLElement) => {
    cell.textContent = 'Checking…';
    try {
      const end = Date.now();
      const { positions } = await get<{ positions: Position[] }>('getPositions', {
        vehicle_uid: vehicle.vehicle_uid,
        start_datetime: wallTime(end - 86_400_000),
        end_datetime: wallTime(end),
      });
      const faults = new Map<string, number>();
      for (const position of positions) if (position.ignored) faults.set(position.ignored, (faults.get(position.ignored) ?? 0) + 1);
      cell.textContent = faults.size
        ? [...faults].map(([fault, count]) => `${fault}: ${count}`).join(', ')
        : `none in ${positions.length} points`;
    } catch (error) {
      cell.textContent = `Error: ${(error as Error).message}`;
    }
  };

  status.loading('Loading devices…');
  try {
    vehicles = (await get<{ vehicles: LiveVehicle[] }>('getLiveData')).vehicles;
    for (const vehicle of vehicles) vehicleSelect.append(new Option(vehicleLabel(vehicle), vehicle.vehicle_uid));
    lastPoints.replaceChildren(
      h('h2', {}, 'Last points and faults'),
      table(
        "Each vehicle's last point and its device's faults over the last 24 hours",
        ['Vehicle', 'IMEI', 'Last fix', 'Position', 'Supply', 'Faults (24 h)'],
        vehicles.map((vehicle) => {
          const faults = h(
            'span',
            {},
            h(
              'button',
              {
                type: 'button',
                onclick: (event: Event) => void checkFaults(vehicle, (event.currentTarget as HTMLElement).parentElement as HTMLElement),
              },
              `Check faults of ${vehicleLabel(vehicle)}`,
            ),
          );
          return [
            vehicleLabel(vehicle),
            vehicle.imei,
            fromGmt(vehicle.gps_datetime),
            vehicle.latitude
              ? h(
                  'a',
                  { href: `#/map?vehicle=${vehicle.vehicle_uid}` },
                  `${Number(vehicle.latitude).toFixed(5)}, ${Number(vehicle.longitude).toFixed(5)}`,
                )
              : 'never reported',
            vehicle.supp_volt ? `${vehicle.supp_volt} V` : '—',
            faults,
          ];
        }),
      ),
    );
    status.done();
  } catch (error) {
    status.error(error);
  }
  await refreshTokens();
  return () => undefined;
}
