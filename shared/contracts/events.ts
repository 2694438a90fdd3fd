/**
 * The event object of each type (docs/events.md, "Types"), as getEvents answers it and every webhook delivery's body
 * carries it: `data` holds what every event carries, then the type's own fields. getEvents' declared output and the
 * OpenAPI document's `webhooks` section are made from these schemas; test/project/event-payloads.whole-table.test.ts emits every
 * type and validates it against the document.
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { EVENT_TYPES, type EventType } from '../domain/events/event-types.ts';
import { WEBHOOK_TEST_TYPE } from '../domain/webhooks/attempt.ts';
import { dateTimeField, described, flagField, integerField, nullableNumberField, nullableTextField } from './primitives.ts';
import { EXAMPLE_TRIP, TripRecord } from './trips.ts';

/** What every event's data carries, whatever its type. */
export const COMMON_EVENT_DATA = {
  vehicle_uid: described(integerField, 'The vehicle (getVehicles).'),
  imei: described(v.string(), "Its tracking device's IMEI."),
  vehicle_name: described(v.string(), 'Its name when the event was emitted.'),
  occurred_at: described(dateTimeField, 'When it happened, GMT+0.'),
  sequence: described(integerField, 'Per vehicle, increasing in emission order.'),
  late: described(flagField, '1 when an event of the vehicle that occurred later was emitted before it.'),
  latitude: described(nullableNumberField, 'Where it happened (null: no position is known).'),
  longitude: described(nullableNumberField, 'Where it happened (null: no position is known).'),
};

const zoneData = {
  user_location_uid: described(integerField, 'The zone: a user location (getUserLocation).'),
  description: described(v.string(), "The zone's description when the event was decided."),
  speed: described(v.number(), "The zone's speed limit in km/h when the event was decided (0: none)."),
  only_push: described(flagField, "The zone's only_push flag."),
  interpolated: described(flagField, '1: the crossing lies between two fixes, at the time and place interpolated along them.'),
};

const speedingZone = described(
  v.nullable(integerField),
  "The zone whose limit applies (the lowest of the zones the vehicle is in); null: the vehicle's own limit.",
);

/** Each type's own fields in its data. */
export const EVENT_DATA_FIELDS = {
  'geofence.entered': zoneData,
  'geofence.exited': zoneData,
  'no_go.entered': zoneData,
  'no_go.exited': zoneData,
  'speeding.started': {
    limit_kmh: described(v.number(), 'The limit exceeded, km/h.'),
    speed_kmh: described(v.number(), 'The speed at the first fix above the limit, km/h.'),
    user_location_uid: speedingZone,
  },
  'speeding.ended': {
    limit_kmh: described(v.number(), 'The limit that was exceeded, km/h.'),
    max_speed_kmh: described(v.number(), 'The highest speed while speeding, km/h.'),
    duration_s: described(integerField, 'Seconds from the first fix above the limit to the first at or below it.'),
    user_location_uid: speedingZone,
  },
  'trip.started': {
    trip_uid: described(v.string(), 'The trip (getTrips).'),
    start_location: described(v.string(), 'Where it started.'),
    driver_tag_id: described(nullableTextField, 'The driver tag the vehicle reported.'),
  },
  'trip.completed': {
    trip: TripRecord,
  },
  'fuel.filled': {
    event_uid: described(integerField, 'The fill (getFuelFillReport, addFuelFillSlip).'),
    fill_qty: described(v.number(), 'Litres added, to 0.1.'),
    fuel_level_before: described(nullableNumberField, 'Litres before, to 0.1 (null: unknown).'),
    fuel_level_after: described(v.number(), 'Litres after, to 0.1.'),
    location: described(v.string(), 'Where, named as getFuelFillReport names it.'),
  },
  'fuel.dropped': {
    drop_qty: described(v.number(), 'Litres lost, to 0.1.'),
    fuel_level_before: described(v.number(), 'Litres before the fall, to 0.1.'),
    fuel_level_after: described(v.number(), 'Litres once the level settled, to 0.1.'),
    moving: described(flagField, '1: the vehicle moved while the level fell.'),
  },
  'device.offline': {
    last_response: described(dateTimeField, 'When the service last took a point for the vehicle, GMT+0.'),
  },
  'device.online': {
    gap_s: described(integerField, 'Seconds since the last point taken before the silence.'),
  },
  'event.voided': {
    voided_event_id: described(v.string(), 'The event retracted.'),
    voided_type: described(v.picklist(EVENT_TYPES), 'Its type.'),
    reason: described(v.string(), 'Why.'),
  },
} as const satisfies Record<EventType, v.ObjectEntries>;

/** What each type means, for the document's webhooks and the feed's items. */
export const EVENT_MEANINGS: Record<EventType, string> = {
  'geofence.entered': 'The vehicle entered one of your user locations (after the dwell, when one is set).',
  'geofence.exited': 'The vehicle left one of your user locations beyond its exit margin.',
  'no_go.entered': 'The vehicle entered one of your user locations marked no_go=1.',
  'no_go.exited': 'The vehicle left one of your user locations marked no_go=1.',
  'speeding.started': 'The speed stayed above the limit for speedingMinS.',
  'speeding.ended': 'The speed stayed at or below the limit for speedingMinS.',
  'trip.started': 'Detection found a trip: its start (emitted with its trip.completed, stamped at the start).',
  'trip.completed': 'Detection found a trip: its end, with the trip record.',
  'fuel.filled': 'Detection found a fuel fill.',
  'fuel.dropped': 'The fuel level fell by at least fuelDropMinL within fuelDropWindowS and stayed down.',
  'device.offline': "No point was taken for the vehicle for its offlineAfterS, on the service's clock.",
  'device.online': 'The first point taken after device.offline.',
  'event.voided': 'Re-detection no longer finds a fact, or finds it with other figures: its event is retracted.',
};

const eventEnvelope = {
  event_id: described(v.string(), "The fact's identity: the same fact always has the same id (a delivery's webhook-id)."),
  timestamp: described(v.string(), 'When the service emitted it, ISO 8601 UTC.'),
};

/** The component name of a type's event object: trip.completed is TripCompletedEvent. */
export const eventSchemaName = (type: string): string =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

const eventOf = <Type extends EventType>(type: Type) =>
  v.pipe(
    v.object({ ...eventEnvelope, type: v.literal(type), data: v.object({ ...COMMON_EVENT_DATA, ...EVENT_DATA_FIELDS[type] }) }),
    v.description(EVENT_MEANINGS[type]),
  );

/** Each type's event object, by type. */
export const EVENT_SCHEMAS = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventOf(type)])) as {
  [Type in EventType]: ReturnType<typeof eventOf<Type>>;
};

/** An event of any type: one of the types' objects, told apart by `type`. */
export const FleetEventSchema = v.variant(
  'type',
  EVENT_TYPES.map((type) => EVENT_SCHEMAS[type]),
);

/** testWebhook's delivery: no vehicle's fact, so no feed holds it and no subscription asks for it. */
export const WebhookTestEvent = v.pipe(
  v.object({
    ...eventEnvelope,
    type: v.literal(WEBHOOK_TEST_TYPE),
    data: v.object({
      webhook_uid: described(integerField, 'The webhook tested.'),
      message: v.string(),
    }),
  }),
  v.description('Sent by testWebhook to check an endpoint: no vehicle did anything.'),
);

const exampleZone = { user_location_uid: 3, description: 'Client Kempton Park', speed: 0, only_push: 0, interpolated: 0 };

/** An example of each type's own fields and where it happened: the demo truck's day (`npm start`). */
const OWN_EXAMPLES: Record<EventType, { at: string; fields: Record<string, unknown> }> = {
  'geofence.entered': { at: '2026-11-22 06:53:58', fields: exampleZone },
  'geofence.exited': { at: '2026-11-22 07:41:12', fields: exampleZone },
  'no_go.entered': { at: '2026-11-22 09:12:40', fields: { ...exampleZone, user_location_uid: 5, description: 'No-go yard Marlboro' } },
  'no_go.exited': { at: '2026-11-22 09:13:31', fields: { ...exampleZone, user_location_uid: 5, description: 'No-go yard Marlboro' } },
  'speeding.started': { at: '2026-11-22 10:02:10', fields: { limit_kmh: 40, speed_kmh: 57.3, user_location_uid: 6 } },
  'speeding.ended': {
    at: '2026-11-22 10:03:25',
    fields: { limit_kmh: 40, max_speed_kmh: 61.2, duration_s: 75, user_location_uid: 6 },
  },
  'trip.started': {
    at: '2026-11-22 06:30:00',
    fields: { trip_uid: '1', start_location: 'Depot Midrand', driver_tag_id: '01A2B3C4' },
  },
  'trip.completed': { at: '2026-11-22 06:54:24', fields: { trip: EXAMPLE_TRIP } },
  'fuel.filled': {
    at: '2026-11-22 11:20:05',
    fields: { event_uid: 4, fill_qty: 62.4, fuel_level_before: 120.3, fuel_level_after: 182.7, location: 'Fuel stop Midrand' },
  },
  'fuel.dropped': {
    at: '2026-11-22 01:30:40',
    fields: { drop_qty: 39.6, fuel_level_before: 182.7, fuel_level_after: 143.1, moving: 0 },
  },
  'device.offline': { at: '2026-11-22 13:30:31', fields: { last_response: '2026-11-22 13:00:31' } },
  'device.online': { at: '2026-11-22 14:15:40', fields: { gap_s: 4509 } },
  'event.voided': {
    at: '2026-11-22 06:54:24',
    fields: {
      voided_event_id: 'evt_3f0c9c1b2a8d4e6f8a1b2c3d4e5f6a7b',
      voided_type: 'trip.completed',
      reason: 're-detection no longer finds this fact',
    },
  },
};

/** An event object of the type, as the feed answers it and a delivery carries it. */
export function exampleEvent(type: EventType, sequence = 1): Record<string, unknown> {
  const { at, fields } = OWN_EXAMPLES[type];
  return {
    event_id: `evt_${createHash('sha256').update(type).digest('hex').slice(0, 32)}`,
    type,
    timestamp: `${at.replace(' ', 'T')}.204Z`,
    data: {
      vehicle_uid: 1,
      imei: '356307042441013',
      vehicle_name: 'Truck 12',
      occurred_at: at,
      sequence,
      late: 0,
      latitude: -26.10147,
      longitude: 28.23079,
      ...fields,
    },
  };
}

/** testWebhook's delivery, as an example. */
export const exampleTestEvent = {
  event_id: 'evt_6f1c7e1a0c554a4e9d1e2b1a0b6c9f10',
  type: WEBHOOK_TEST_TYPE,
  timestamp: '2026-11-22T08:00:00.000Z',
  data: { webhook_uid: 1, message: 'A test event sent by testWebhook: no vehicle did anything.' },
};
