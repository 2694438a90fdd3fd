/**
 * Events: the feed (getEvents) as a timeline, newest first, filtered by type and vehicle, following new events live by
 * calling again with next_cursor; each event links to the map at its place and time.
 */
import { EVENT_TYPES } from '../../../shared/domain/events/event-types.ts';
import { get } from '../api.ts';
import { poll } from '../poll.ts';
import { fromGmt, offsetLabel, wallTime } from '../time.ts';
import { type FleetEvent, type Vehicle, vehicleLabel } from '../types.ts';
import { field, h, pageFrame, statusLine, submitted } from '../ui.ts';

export const EVENTS_POLL_MS = 15_000;

export async function eventsPage(main: HTMLElement, params: URLSearchParams): Promise<() => void> {
  const status = statusLine();
  const typeSelect = h(
    'select',
    {},
    h('option', { value: '' }, 'Every type'),
    ...EVENT_TYPES.map((type) => h('option', { value: type }, type)),
  );
  const vehicleSelect = h('select', {}, h('option', { value: '' }, 'Every vehicle'));
  const since = h('input', { type: 'date', value: wallTime(Date.now() - 2 * 86_400_000, 0).slice(0, 10) });
  const live = h('input', { type: 'checkbox', id: 'follow-live', checked: true });
  const timeline = h('ol', { class: 'timeline', 'aria-label': 'Events, newest first' });
  const filters = h(
    'form',
    { class: 'filters', onsubmit: submitted(() => load()) },
    field('Event type', typeSelect),
    field('Vehicle', vehicleSelect),
    field('Since (GMT+0)', since),
    h('button', { type: 'submit' }, 'Show events'),
    h('div', { class: 'field inline' }, live, h('label', { for: live.id }, 'Follow new events live')),
  );
  pageFrame(main, 'Events', filters, status.element, h('p', { class: 'hint' }, `Times in ${offsetLabel()}.`), timeline);
  typeSelect.value = params.get('type') ?? '';
  let cursor = '';
  let names = new Map<number, string>();

  const query = () => ({ types: typeSelect.value || undefined, vehicle_uid: vehicleSelect.value || undefined });
  const render = (event: FleetEvent): HTMLElement => {
    const { data } = event;
    const place =
      data.latitude === null
        ? null
        : `#/map?vehicle=${data.vehicle_uid}&lat=${data.latitude}&lng=${data.longitude}` +
          `&at=${encodeURIComponent(data.occurred_at)}&event=${encodeURIComponent(event.type)}`;
    return h(
      'li',
      { class: `event ${event.type.split('.')[0]}` },
      h('time', { datetime: `${data.occurred_at.replace(' ', 'T')}Z` }, fromGmt(data.occurred_at)),
      h('span', { class: 'type' }, event.type),
      h('span', { class: 'vehicle' }, names.get(data.vehicle_uid) ?? data.vehicle_name),
      h('span', { class: 'detail' }, detailOf(event)),
      place ? h('a', { href: place }, `Show ${event.type} of ${data.vehicle_name} on the map`) : h('span', {}, 'no position'),
    );
  };
  const load = async () => {
    status.loading('Loading events…');
    try {
      const answer = await get<{ events: FleetEvent[]; next_cursor: string }>('getEvents', {
        ...query(),
        since: `${since.value} 00:00:00`,
        limit: 200,
      });
      cursor = answer.next_cursor;
      timeline.replaceChildren(...answer.events.reverse().map(render));
      status.done(answer.events.length ? `${answer.events.length} events` : 'No events for these filters.');
    } catch (error) {
      status.error(error);
    }
  };
  const follow = async () => {
    if (!live.checked || !cursor) return;
    const answer = await get<{ events: FleetEvent[]; next_cursor: string }>('getEvents', { ...query(), cursor });
    cursor = answer.next_cursor;
    if (answer.events.length) timeline.prepend(...answer.events.reverse().map(render));
  };
  try {
    const vehicles = (await get<{ vehicles: Vehicle[] }>('getVehicles')).vehicles;
    names = new Map(vehicles.map((vehicle) => [Number(vehicle.vehicle_uid), vehicleLabel(vehicle)]));
    for (const vehicle of vehicles) vehicleSelect.append(new Option(vehicleLabel(vehicle), vehicle.vehicle_uid));
    vehicleSelect.value = params.get('vehicle') ?? '';
  } catch (error) {
    status.error(error);
    return () => undefined;
  }
  await load();
  return poll(EVENTS_POLL_MS, follow);
}

function detailOf(event: FleetEvent): string {
  const data = event.data as Record<string, unknown>;
  if (typeof data.description === 'string') return data.description;
  if (typeof data.speed_kmh === 'number') return `${data.speed_kmh} km/h over ${data.limit_kmh}`;
  if (typeof data.max_speed_kmh === 'number') return `up to ${data.max_speed_kmh} km/h over ${data.limit_kmh}`;
  if (typeof data.start_location === 'string') return `from ${data.start_location}`;
  if (typeof data.stop_location === 'string') return `to ${data.stop_location}`;
  return '';
}
