/** The service's name: the logs' `service`, the traces' service and every custom metric's `service` dimension. */
export const serviceName = 'fleet-tracking';

/** The namespace of every custom metric (EMF through Powertools Metrics). */
export const metricsNamespace = 'FleetTracking';

/**
 * Every metric the service emits, named once: the handlers publish them and infra/ alarms and graphs them,
 * so a renamed metric cannot leave an alarm watching nothing.
 */
export const metricNames = {
  requests: 'Requests',
  errors: 'Errors',
  latency: 'Latency',
  positionsReceived: 'PositionsReceived',
  positionsRejected: 'PositionsRejected',
  positionsTooLate: 'PositionsTooLate',
  positionsFailed: 'PositionsFailed',
  tripsDetected: 'TripsDetected',
  fuelFillsDetected: 'FuelFillsDetected',
  fuelFillsKeptForSlip: 'FuelFillsKeptForSlip',
  /** reverse-geocoding calls that failed (error, timeout, unreadable answer): those places got the gazetteer's name */
  geocodingFailures: 'GeocodingFailures',
  // the Teltonika listener (shared/devices/teltonika/service.ts), per minute
  teltonikaOpenConnections: 'TeltonikaOpenConnections',
  teltonikaHandshakesRejected: 'TeltonikaHandshakesRejected',
  /** refused handshakes held before their answer: a source address past its budget of refusals (guessing) */
  teltonikaHandshakesHeld: 'TeltonikaHandshakesHeld',
  /** connections closed at once: over the task's or a source address's cap */
  teltonikaConnectionsRefused: 'TeltonikaConnectionsRefused',
  /** records of CRC-valid packets that could not be used (a jammed unit): acknowledged and dead-lettered */
  teltonikaRecordsDeadLettered: 'TeltonikaRecordsDeadLettered',
  teltonikaCrcFailures: 'TeltonikaCrcFailures',
  teltonikaMalformedPackets: 'TeltonikaMalformedPackets',
  teltonikaRecordsAcked: 'TeltonikaRecordsAcked',
  /** records of well-formed packets the stream did not take: not acknowledged, the units resend them */
  teltonikaRecordsNotAcked: 'TeltonikaRecordsNotAcked',
  /** positions a device entry point refused because the IMEI is not the token's user's (those it took: PositionsReceived) */
  devicePositionsRefused: 'DevicePositionsRefused',
  /** device requests refused with 429: past the device token's or an IMEI's bucket */
  deviceRequestsThrottled: 'DeviceRequestsThrottled',
  /** readings a device entry point dropped from their points (out of range, unreadable, too long): the points are kept */
  deviceReadingsDropped: 'DeviceReadingsDropped',
  // webhook delivery (docs/webhooks.md, "Delivery")
  /** deliveries the router queued (one per event and endpoint) */
  webhookDeliveriesQueued: 'WebhookDeliveriesQueued',
  /** attempts answered 2xx, and attempts that were not (any other status, a timeout, a connection error, a refused URL) */
  webhookAttemptsSucceeded: 'WebhookAttemptsSucceeded',
  webhookAttemptsFailed: 'WebhookAttemptsFailed',
  /** deliveries given up: the schedule ran out or the endpoint answered 410 */
  webhookDeliveriesFailed: 'WebhookDeliveriesFailed',
  /** seconds between when an attempt was due and when it started: the senders falling behind */
  webhookDeliveryLag: 'WebhookDeliveryLagSeconds',
} as const;

/** Device faults (docs/positions-pipeline.md, "Device faults"): points set aside or ignored, and readings ignored, per class. */
export const faultMetricNames = {
  'in the future': 'PositionsInTheFuture',
  'too late': 'PositionsTooLateFault',
  'zero fix': 'PositionsZeroFix',
  'invalid fix': 'PositionsInvalidFix',
  'speed jump': 'PositionsSpeedJump',
  'same second': 'PositionsSameSecond',
  'stale fix': 'PositionsStaleFix',
  outlier: 'PositionsOutlier',
  'fuel dropout': 'FuelDropouts',
  'odometer reset': 'OdometerResets',
  'odometer jump': 'OdometerJumps',
  'dropped reading': 'ReadingsDropped',
} as const;
