/**
 * Where every device entry point (OsmAnd and Traccar over HTTP, Teltonika over TCP) puts the normalized records it
 * decoded: the positions stream in AWS, the local pipeline under `npm start`. One interface, so an entry point
 * never knows which.
 */
import type { PositionRecordInput } from '../domain/tracking/position.ts';

/**
 * What an entry point acknowledged but cannot use (a CRC-valid Teltonika packet or record it cannot read): put on
 * the stream with why, so the pipeline dead-letters it (no record check accepts it) and the device moves on.
 */
export type UnusableRecord = { imei: string; unusable: string } & Record<string, unknown>;

export type SinkRecord = PositionRecordInput | UnusableRecord;

export interface PositionSink {
  /**
   * Resolves only once every record is durably accepted (by Kinesis, or committed by the local pipeline), so the
   * caller may then acknowledge the device; rejects when any record was not, so the device keeps and resends them.
   * Records are partitioned by IMEI.
   */
  put(records: readonly SinkRecord[]): Promise<void>;
}
