/**
 * Trips and replay: a vehicle's trips for a date range (getTrips), one trip drawn from its positions (getPositions) and
 * replayed (play, pause, speed, follow) beside its speed chart, the trip's events (getEvents) marked on both; the trips
 * export as CSV and a trip as GPX.
 */
import { Marker } from 'maplibre-gl';
import { get } from '../api.ts';
import { speedChart } from '../chart.ts';
import { tripGpx, tripsCsv } from '../export.ts';
import { addOfflineDetailWhenShown, createMap, featureCollection, fitTo, setGeoJson } from '../map.ts';
import { daysBefore, fromGmt, instantOf, offsetLabel, offsetMinutes, today, wallTime } from '../time.ts';
import { type FleetEvent, type Position, type Trip, type Vehicle, vehicleLabel } from '../types.ts';
import { download, field, h, pageFrame, statusLine, submitted, table } from '../ui.ts';

export async function tripsPage(main: HTMLElement, params: URLSearchParams): Promise<() => void> {
  const status = statusLine();
  const vehicleSelect = h('select', {});
  const from = h('input', { type: 'date', value: params.get('from') ?? daysBefore(today(), 2), required: true });
  const to = h('input', { type: 'date', value: params.get('to') ?? today(), required: true });
  const results = h('section', { 'aria-label': 'Trips found' });
  const replayBox = h('section', { class: 'replay', 'aria-label': 'Replay' });
  const form = h(
    'form',
    { class: 'filters', onsubmit: submitted(() => showTrips()) },
    field('Vehicle', vehicleSelect),
    field('From', from),
    field('To', to),
    h('button', { type: 'submit' }, 'Show trips'),
  );
  pageFrame(main, 'Trips and replay', form, status.element, results, replayBox);
  let vehicles: Vehicle[] = [];
  let stopReplay: () => void = () => undefined;

  const showTrips = async () => {
    const vehicle = vehicles.find((candidate) => candidate.vehicle_uid === vehicleSelect.value);
    if (!vehicle) return;
    status.loading('Loading trips…');
    try {
      const answer = await get<{ vehicles: { trips: Trip[] }[] }>('getTrips', {
        filter: vehicle.imei,
        start_date: from.value,
        end_date: to.value,
      });
      const trips = answer.vehicles[0]?.trips ?? [];
      history.replaceState(null, '', `#/trips?vehicle=${vehicle.vehicle_uid}&from=${from.value}&to=${to.value}`);
      status.done(`${trips.length} trips of ${vehicleLabel(vehicle)} from ${from.value} to ${to.value} (times ${offsetLabel()})`);
      results.replaceChildren(
        table(
          `Trips of ${vehicleLabel(vehicle)}`,
          ['Start', 'Stop', 'From', 'To', 'Distance', 'Max speed', ''],
          trips.map((trip) => [
            trip.start_time,
            trip.stop_time,
            trip.start_location,
            trip.stop_location,
            `${trip.distance} km`,
            `${trip.max_speed} km/h`,
            h('button', { type: 'button', onclick: () => replay(vehicle, trip) }, `Replay trip of ${trip.start_time}`),
          ]),
        ),
        h(
          'button',
          {
            type: 'button',
            disabled: trips.length === 0,
            onclick: () =>
              download(`trips-${vehicle.vehicle_uid}-${from.value}-${to.value}.csv`, 'text/csv', tripsCsv(vehicleLabel(vehicle), trips)),
          },
          'Export trips as CSV',
        ),
      );
      const wanted = params.get('trip');
      const first = trips.find((trip) => trip.trip_uid === wanted);
      if (first) await replay(vehicle, first);
    } catch (error) {
      status.error(error);
    }
  };

  const replay = async (vehicle: Vehicle, trip: Trip) => {
    stopReplay();
    status.loading('Loading the trip…');
    try {
      const [answer, events] = await Promise.all([
        get<{ positions: Position[] }>('getPositions', {
          vehicle_uid: vehicle.vehicle_uid,
          start_datetime: trip.start_time,
          end_datetime: trip.stop_time,
        }),
        tripEvents(vehicle, trip),
      ]);
      const positions = answer.positions.filter((position) => !position.ignored);
      status.done(`Trip of ${trip.start_time}: ${positions.length} positions, ${events.length} events`);
      stopReplay = await replayTrip(replayBox, vehicle, trip, positions, events);
    } catch (error) {
      status.error(error);
    }
  };

  try {
    status.loading('Loading vehicles…');
    vehicles = (await get<{ vehicles: Vehicle[] }>('getVehicles')).vehicles;
    for (const vehicle of vehicles) vehicleSelect.append(new Option(vehicleLabel(vehicle), vehicle.vehicle_uid));
    if (params.get('vehicle')) vehicleSelect.value = params.get('vehicle') ?? '';
    status.done();
    await showTrips();
  } catch (error) {
    status.error(error);
  }
  return () => stopReplay();
}

/** The events of the vehicle during the trip: the feed is in GMT+0, the trip in the user's offset. */
async function tripEvents(vehicle: Vehicle, trip: Trip): Promise<FleetEvent[]> {
  const offset = offsetMinutes();
  const start = instantOf(trip.start_time, offset);
  const stop = instantOf(trip.stop_time, offset);
  const answer = await get<{ events: FleetEvent[] }>('getEvents', {
    vehicle_uid: vehicle.vehicle_uid,
    since: wallTime(start - 60_000, 0),
    limit: 1000,
  });
  return answer.events.filter((event) => instantOf(event.data.occurred_at) <= stop + 60_000 && event.data.latitude !== null);
}

const REPLAY_SPEEDS = [1, 10, 30, 60, 120, 300];

async function replayTrip(
  box: HTMLElement,
  vehicle: Vehicle,
  trip: Trip,
  positions: Position[],
  events: FleetEvent[],
): Promise<() => void> {
  // Positions come in GMT+0.
  const times = positions.map((position) => instantOf(position.gps_datetime));
  // Disabled until the map is ready to show the replay.
  const play = h('button', { type: 'button', 'aria-pressed': 'false', disabled: true }, 'Play');
  const speed = h('select', {});
  for (const factor of REPLAY_SPEEDS) speed.append(new Option(`${factor}×`, String(factor), factor === 60, factor === 60));
  const follow = h('input', { type: 'checkbox', id: 'replay-follow' });
  const slider = h('input', { type: 'range', min: 0, max: Math.max(0, positions.length - 1), value: 0, step: 1, disabled: true });
  const readout = h('p', { class: 'readout', 'aria-live': 'off' });
  const chart = speedChart(
    positions.map((position, index) => [times[index] ?? 0, position.speed ?? 0]),
    events.map((event) => [instantOf(event.data.occurred_at), `${event.type} at ${fromGmt(event.data.occurred_at)}`]),
  );
  const mapBox = h('div', { class: 'map replay-map' });
  box.replaceChildren(
    h('h2', {}, `Replay: ${vehicleLabel(vehicle)}, ${trip.start_time} to ${trip.stop_time}`),
    h(
      'div',
      { class: 'controls' },
      play,
      field('Replay speed', speed),
      h('div', { class: 'field inline' }, follow, h('label', { for: follow.id }, 'Follow the vehicle')),
      field('Replay position', slider),
      h(
        'button',
        {
          type: 'button',
          onclick: () =>
            download(`trip-${trip.trip_uid}.gpx`, 'application/gpx+xml', tripGpx(`${vehicleLabel(vehicle)} ${trip.start_time}`, positions)),
        },
        'Export trip as GPX',
      ),
    ),
    readout,
    h(
      'div',
      { class: 'replay-split' },
      mapBox,
      h('figure', {}, chart.element, h('figcaption', {}, 'Speed (km/h) over the trip; red lines are events')),
    ),
    h(
      'ul',
      { class: 'trip-events', 'aria-label': 'Events of the trip' },
      ...events.map((event) => h('li', {}, `${fromGmt(event.data.occurred_at)} ${event.type}`)),
    ),
  );
  const map = await createMap(mapBox, 'Map of the trip');
  const line: [number, number][] = positions.map((position) => [position.longitude, position.latitude]);
  setGeoJson(map, 'trip', featureCollection([{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: line } }]));
  map.addLayer({ id: 'trip-line', type: 'line', source: 'trip', paint: { 'line-color': '#0b5cad', 'line-width': 4 } });
  for (const event of events) {
    const mark = h('span', { class: 'event-mark', title: `${event.type} at ${fromGmt(event.data.occurred_at)}`, 'aria-hidden': 'true' });
    new Marker({ element: mark }).setLngLat([event.data.longitude ?? 0, event.data.latitude ?? 0]).addTo(map);
  }
  fitTo(map, line);
  addOfflineDetailWhenShown(map);
  const vehicleMark = new Marker({ element: h('span', { class: 'replay-vehicle', 'aria-hidden': 'true' }) })
    .setLngLat(line[0] ?? [0, 0])
    .addTo(map);

  let clock = times[0] ?? 0;
  let index = 0;
  let frame = 0;
  let last = 0;
  const show = () => {
    const position = positions[index];
    if (!position) return;
    vehicleMark.setLngLat([position.longitude, position.latitude]);
    slider.value = String(index);
    chart.moveCursor(clock);
    readout.textContent = `${fromGmt(position.gps_datetime)} · ${Math.round(position.speed ?? 0)} km/h`;
    if (follow.checked) map.setCenter([position.longitude, position.latitude]);
  };
  const pause = () => {
    cancelAnimationFrame(frame);
    frame = 0;
    play.textContent = 'Play';
    play.setAttribute('aria-pressed', 'false');
  };
  const step = (now: number) => {
    clock += (now - last) * Number(speed.value);
    last = now;
    while (index < positions.length - 1 && (times[index + 1] ?? 0) <= clock) index++;
    show();
    if (index >= positions.length - 1) pause();
    else frame = requestAnimationFrame(step);
  };
  play.addEventListener('click', () => {
    if (frame) return pause();
    if (index >= positions.length - 1) {
      index = 0;
      clock = times[0] ?? 0;
    }
    play.textContent = 'Pause';
    play.setAttribute('aria-pressed', 'true');
    last = performance.now();
    frame = requestAnimationFrame(step);
  });
  slider.addEventListener('input', () => {
    index = Number(slider.value);
    clock = times[index] ?? clock;
    show();
  });
  show();
  play.disabled = false;
  slider.disabled = false;
  return () => {
    pause();
    map.remove();
  };
}
