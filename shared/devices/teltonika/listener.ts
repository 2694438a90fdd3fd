/**
 * The Teltonika TCP listener (docs/devices.md, "Teltonika"): the same code under `npm start` and as the Fargate
 * service behind the Network Load Balancer in AWS. It is the device server (shared/devices/tcp/device-server.ts:
 * connections, PROXY header, caps, deadlines, refusals, one connection per IMEI, the sink before the ack) driving the
 * Teltonika protocol (protocol.ts: the IMEI hello, Codec 8 and 8E packets, their acks).
 */
import type { PositionSink } from '../position-sink.ts';
import { startDeviceServer } from '../tcp/device-server.ts';
import { type DeviceServerCounters, type DeviceServerLimits, newDeviceServerCounters } from '../tcp/server-settings.ts';
import { MAX_PACKET_BYTES, type RegisteredDevice, TeltonikaProtocol, type TeltonikaProtocolCounters } from './protocol.ts';

export interface TeltonikaListenerOptions extends DeviceServerLimits {
  port: number;
  host?: string;
  sink: PositionSink;
  /** the vehicle registered with the IMEI, or undefined: the handshake's answer */
  findDevice(imei: string): Promise<RegisteredDevice | undefined>;
  /** the largest AVL data field accepted (Teltonika units send at most a few KB) */
  maxPacketBytes?: number;
}

/** Running totals since the listener started; the AWS service publishes them as metrics, the alarms watch some. */
export interface TeltonikaCounters extends DeviceServerCounters, TeltonikaProtocolCounters {}

export interface TeltonikaListener {
  port: number;
  counters: Readonly<TeltonikaCounters>;
  close(): Promise<void>;
}

export async function startTeltonikaListener({
  maxPacketBytes = MAX_PACKET_BYTES,
  ...options
}: TeltonikaListenerOptions): Promise<TeltonikaListener> {
  const counters: TeltonikaCounters = { ...newDeviceServerCounters(), recordsDeadLettered: 0 };
  const server = await startDeviceServer({ ...options, protocol: new TeltonikaProtocol(maxPacketBytes, counters), counters });
  return { port: server.port, counters, close: () => server.close() };
}
