/**
 * The event types (docs/events.md), in a module of its own with no Node import: the console's browser bundle reads the
 * same list as the service's contracts.
 */
export const EVENT_TYPES = [
  'geofence.entered',
  'geofence.exited',
  'no_go.entered',
  'no_go.exited',
  'speeding.started',
  'speeding.ended',
  'trip.started',
  'trip.completed',
  'fuel.filled',
  'fuel.dropped',
  'device.offline',
  'device.online',
  'event.voided',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (text: string): text is EventType => (EVENT_TYPES as readonly string[]).includes(text);
