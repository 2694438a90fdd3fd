/**
 * What the listener's task publishes each minute (shared/devices/teltonika/service.ts). CloudWatch bills a custom
 * metric by the hours it is sent in, so a counter is sent only in a minute it moved: the refusals, CRC failures and
 * dead letters that are zero nearly always cost nearly nothing, and the alarms on them read a missing period as zero
 * (infra/monitoring/monitoring.ts). Open connections go out every minute, zero or not: the connection scaling follows
 * them and, with a single task, the alarm on no task up counts the minutes without one.
 */
import { metricNames } from '../../metric-names.ts';
import type { TeltonikaCounters } from './listener.ts';

type CountedName = keyof Omit<TeltonikaCounters, 'openConnections'>;

const counted: ReadonlyArray<[CountedName, string]> = [
  ['handshakesRejected', metricNames.teltonikaHandshakesRejected],
  ['handshakesHeld', metricNames.teltonikaHandshakesHeld],
  ['connectionsRefused', metricNames.teltonikaConnectionsRefused],
  ['recordsDeadLettered', metricNames.teltonikaRecordsDeadLettered],
  ['crcFailures', metricNames.teltonikaCrcFailures],
  ['malformedPackets', metricNames.teltonikaMalformedPackets],
  ['recordsAcked', metricNames.teltonikaRecordsAcked],
  ['recordsNotAcked', metricNames.teltonikaRecordsNotAcked],
];

/** The metrics of one minute, remembering what each counter stood at: each counter's growth since the last call, when it grew. */
export class CounterMetrics {
  private readonly published: Partial<Record<CountedName, number>> = {};

  minute(counters: Readonly<TeltonikaCounters>): Array<[name: string, value: number]> {
    const sent: Array<[string, number]> = [[metricNames.teltonikaOpenConnections, counters.openConnections]];
    for (const [counter, name] of counted) {
      const growth = counters[counter] - (this.published[counter] ?? 0);
      this.published[counter] = counters[counter];
      if (growth > 0) sent.push([name, growth]);
    }
    return sent;
  }
}
