/** The listener task's minute metrics: sent only when they moved, so CloudWatch bills the quiet ones for nearly nothing. */
import { describe, expect, it } from 'vitest';
import { newDeviceServerCounters } from '../../shared/devices/tcp/server-settings.ts';
import { CounterMetrics } from '../../shared/devices/teltonika/counter-metrics.ts';
import type { TeltonikaCounters } from '../../shared/devices/teltonika/listener.ts';
import { metricNames } from '../../shared/metric-names.ts';

const countersWith = (counts: Partial<TeltonikaCounters> = {}): TeltonikaCounters => ({
  ...newDeviceServerCounters(),
  recordsDeadLettered: 0,
  ...counts,
});

describe('CounterMetrics', () => {
  it('sends the open connections every minute, even when no unit is connected', () => {
    // Prepare
    const metrics = new CounterMetrics();
    // Act
    const first = metrics.minute(countersWith());
    const second = metrics.minute(countersWith());
    // Assess
    expect(first).toEqual([[metricNames.teltonikaOpenConnections, 0]]);
    expect(second).toEqual([[metricNames.teltonikaOpenConnections, 0]]);
  });

  it('sends each counter’s growth in the minute it grew, and nothing for it in a minute it stood still', () => {
    // Prepare
    const metrics = new CounterMetrics();
    metrics.minute(countersWith({ recordsAcked: 100, crcFailures: 1 }));
    // Act
    const moved = metrics.minute(countersWith({ openConnections: 7, recordsAcked: 130, crcFailures: 1, handshakesRejected: 2 }));
    const still = metrics.minute(countersWith({ openConnections: 7, recordsAcked: 130, crcFailures: 1, handshakesRejected: 2 }));
    // Assess
    expect(moved).toEqual([
      [metricNames.teltonikaOpenConnections, 7],
      [metricNames.teltonikaHandshakesRejected, 2],
      [metricNames.teltonikaRecordsAcked, 30],
    ]);
    expect(still).toEqual([[metricNames.teltonikaOpenConnections, 7]]);
  });

  it('sends every counter the listener publishes once each has moved', () => {
    // Prepare
    const metrics = new CounterMetrics();
    const all = countersWith({
      handshakesRejected: 1,
      handshakesHeld: 1,
      connectionsRefused: 1,
      recordsDeadLettered: 1,
      crcFailures: 1,
      malformedPackets: 1,
      recordsAcked: 1,
      recordsNotAcked: 1,
    });
    // Act
    const sent = metrics.minute(all).map(([name]) => name);
    // Assess
    const published = Object.entries(metricNames).filter(([key]) => key.startsWith('teltonika'));
    expect(sent.sort()).toEqual(published.map(([, name]) => name).sort());
  });
});
