import * as v from 'valibot';
import { exampleEvent, FleetEventSchema } from '../../shared/contracts/events.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { pageCursor } from '../../shared/contracts/paging.ts';
import { dateTimeParameter, described, integerField, requiredInteger, scalar } from '../../shared/contracts/primitives.ts';
import { EVENT_TYPES, isEventType } from '../../shared/domain/events/event-types.ts';

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

const GetEventsOutput = v.object({
  cnt: integerField,
  events: v.array(FleetEventSchema),
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
      events: [exampleEvent('trip.completed', 2)],
      next_cursor: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8',
    },
  },
} as const satisfies OperationDeclaration;
