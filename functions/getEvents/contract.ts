import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { pageCursor } from '../../shared/contracts/paging.ts';
import {
  dateTimeField,
  dateTimeParameter,
  described,
  integerField,
  nullableNumberField,
  nullableTextField,
  requiredInteger,
  scalar,
} from '../../shared/contracts/primitives.ts';
import { TripRecord } from '../../shared/contracts/trips.ts';
import { EVENT_TYPES, isEventType } from '../../shared/domain/events/event.ts';

export const DEFAULT_EVENTS = 100;
export const MAX_EVENTS = 1000;

const limitMessage = `limit must be an integer from 1 to ${MAX_EVENTS}`;
const typesMessage = `types must be a comma list of: ${EVENT_TYPES.join(', ')}`;

const GetEventsInput = v.object({
  vehicle_uid: v.optional(
    described(
      requiredInteger('vehicle_uid'),
      "Only this vehicle's events: a vehicle linked to the key's user (vehicle_uid of getVehicles).",
    ),
  ),
  types: v.optional(
    v.pipe(
      scalar(typesMessage),
      v.metadata({ pattern: '^[a-z_., ]*$' }),
      v.transform((text) => text.split(',').map((type) => type.trim())),
      v.check((types) => types.every(isEventType), typesMessage),
      v.transform((types) => [...new Set(types)].sort()),
      v.description(`Only these event types, a comma list of: ${EVENT_TYPES.join(', ')}.`),
    ),
  ),
  since: v.optional(
    described(
      dateTimeParameter('since must be a date and time (yyyy-mm-dd hh:mm:ss)'),
      'Events appended to your feed (committed) from this time on, yyyy-mm-dd hh:mm:ss in GMT+0 (default: 24 hours ago). ' +
        'Ignored with a cursor.',
    ),
  ),
  cursor: pageCursor,
  limit: v.optional(
    v.pipe(
      requiredInteger('limit', limitMessage),
      v.minValue(1, limitMessage),
      v.maxValue(MAX_EVENTS, limitMessage),
      v.metadata({ default: DEFAULT_EVENTS }),
      v.description(`The most events this answer holds, 1 to ${MAX_EVENTS} (default ${DEFAULT_EVENTS}).`),
    ),
  ),
});

const optional = <Schema extends v.GenericSchema>(schema: Schema, description: string) => v.optional(described(schema, description));

/** Every event's fields, then each type's own (docs/events.md, "Types"); a type carries only its own. */
const EventData = v.object({
  vehicle_uid: integerField,
  imei: v.string(),
  vehicle_name: v.string(),
  occurred_at: described(dateTimeField, 'When it happened, GMT+0.'),
  sequence: described(integerField, 'Per vehicle, increasing in emission order.'),
  late: described(v.picklist([0, 1]), '1 when an event of the vehicle that occurred later was emitted before it.'),
  latitude: nullableNumberField,
  longitude: nullableNumberField,
  trip_uid: optional(v.string(), 'trip.started: the trip.'),
  start_location: optional(v.string(), 'trip.started: where it started.'),
  driver_tag_id: optional(nullableTextField, 'trip.started: the driver tag the vehicle reported.'),
  trip: optional(TripRecord, 'trip.completed: the trip record as getTrips answers it, times GMT+0.'),
  event_uid: optional(integerField, 'fuel.filled: the fill (getFuelFillReport, addFuelFillSlip).'),
  fill_qty: optional(v.number(), 'fuel.filled: litres added.'),
  fuel_level_before: optional(nullableNumberField, 'fuel.filled: litres before.'),
  fuel_level_after: optional(v.number(), 'fuel.filled: litres after.'),
  location: optional(v.string(), 'fuel.filled: where.'),
  voided_event_id: optional(v.string(), 'event.voided: the event retracted.'),
  voided_type: optional(v.picklist(EVENT_TYPES), 'event.voided: its type.'),
  reason: optional(v.string(), 'event.voided: why.'),
});

const EventObject = v.object({
  event_id: described(v.string(), "The fact's identity: the same fact always has the same id."),
  type: v.picklist(EVENT_TYPES),
  timestamp: described(v.string(), 'When the service emitted it, ISO 8601 UTC.'),
  data: EventData,
});

const GetEventsOutput = v.object({
  cnt: integerField,
  events: v.array(EventObject),
  next_cursor: v.pipe(
    v.string(),
    v.description(
      'Always present: called again with it (and the same vehicle_uid and types), the feed answers only events appended since.',
    ),
  ),
});

export const contract = {
  name: 'getEvents',
  method: 'GET',
  area: 'events',
  tableActions: ['BatchGetItem', 'Query'],
  summary: 'The feed of what happened to the vehicles: trips, fills and more, in the order they were committed',
  description:
    "The key's user's own feed: the events of its vehicles (and the vehicle facts of vehicles shared with it; a zone's events " +
    "go to the zone's user alone) in the order they were committed, from `since` or from where the previous answer ended " +
    '(`cursor`). Every answer carries next_cursor, so a client polls the feed forever without gaps or repeats, however late ' +
    'a commit lands. An event is kept 30 days. docs/events.md explains each type.',
  input: GetEventsInput,
  output: GetEventsOutput,
  examples: {
    request: { vehicle_uid: 1, types: 'trip.completed', since: '2026-11-22 00:00:00', cursor: '', limit: 100 },
    response: {
      cnt: 1,
      events: [
        {
          event_id: 'evt_3f0c9c1b2a8d4e6f8a1b2c3d4e5f6a7b',
          type: 'trip.completed',
          timestamp: '2026-11-22T06:54:31.204Z',
          data: {
            vehicle_uid: 1,
            imei: '356307042441013',
            vehicle_name: 'Truck 12',
            occurred_at: '2026-11-22 06:54:24',
            sequence: 2,
            late: 0,
            latitude: -26.10147,
            longitude: 28.23079,
            trip: {
              trip_uid: '1',
              start_time: '2026-11-22 06:30:00',
              stop_time: '2026-11-22 06:54:24',
              start_odo: 120345,
              distance: '17.60',
              duration: '1464',
              max_speed: '101',
              fuel_start: '187.2',
              fuel_end: '180.6',
              start_location_lat: '-25.999177',
              start_location_lng: '28.126312',
              start_location: 'Depot Midrand',
              stop_location_lat: '-26.10147',
              stop_location_lng: '28.23079',
              stop_location: 'Client Kempton Park',
              driver_name: 'Thabo Mokoena',
              driver_tag_id: '01A2B3C4',
            },
          },
        },
      ],
      next_cursor: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8',
    },
  },
} as const satisfies OperationDeclaration;
