/** What a device server is told (its limits, docs/devices.md, "Security", says why each is what it is) and what it counts. */
import type { BucketPolicy } from '../../domain/token-bucket.ts';

export interface DeviceServerLimits {
  /** every connection starts with a PROXY protocol v2 header (the NLB's target group sends it): its source is the device's */
  proxyProtocol?: boolean;
  /** from accepting a connection to its hello's answer */
  handshakeTimeoutMs?: number;
  /** from a frame's first byte to its last */
  packetTimeoutMs?: number;
  /** a connection with no answered frame for this long is closed (bytes that make no frame do not count) */
  idleTimeoutMs?: number;
  /** open connections per task; beyond, new ones are closed at once */
  maxConnections?: number;
  /** open connections per source address: a mobile carrier's CGNAT address carries hundreds of devices */
  maxConnectionsPerSource?: number;
  /** handshakes in progress per source address (held refusals among them) */
  maxPendingHandshakesPerSource?: number;
  /** refused handshakes a source address may have answered at once; beyond, each is held `refusalHoldMs` before its answer */
  refusals?: BucketPolicy;
  refusalHoldMs?: number;
  /** how long a device id found unknown is refused without a lookup (a vehicle added meanwhile waits this long) */
  unknownDeviceMemoryMs?: number;
}

export type DeviceServerSettings = Required<DeviceServerLimits>;

export const DEVICE_SERVER_DEFAULTS: DeviceServerSettings = {
  proxyProtocol: false,
  handshakeTimeoutMs: 30_000,
  packetTimeoutMs: 60_000,
  idleTimeoutMs: 10 * 60_000,
  maxConnections: 20_000,
  maxConnectionsPerSource: 2_000,
  maxPendingHandshakesPerSource: 64,
  refusals: { perSecond: 1, burst: 20 },
  refusalHoldMs: 60_000,
  unknownDeviceMemoryMs: 5 * 60_000,
};

/** Running totals since the server started; the AWS service publishes them as metrics, the alarms watch some. */
export interface DeviceServerCounters {
  connections: number;
  openConnections: number;
  /** connections closed at once: over the task's or the source address's cap, or its handshakes in progress */
  connectionsRefused: number;
  handshakesAccepted: number;
  /** handshakes of device ids no vehicle has (each logged with its remote address) */
  handshakesRejected: number;
  /** of those, refusals held before their answer: the source had used its budget */
  handshakesHeld: number;
  handshakeTimeouts: number;
  /** older connections closed because a new one handshook with the same device id */
  connectionsReplaced: number;
  packetsAcked: number;
  recordsAcked: number;
  crcFailures: number;
  /** framing errors (no preamble, a length over the limit, a bad PROXY header): closed unacknowledged */
  malformedPackets: number;
  /** records of well-formed packets the sink did not take: never acknowledged, the device resends them */
  recordsNotAcked: number;
  packetTimeouts: number;
  idleTimeouts: number;
}

export function newDeviceServerCounters(): DeviceServerCounters {
  return {
    connections: 0,
    openConnections: 0,
    connectionsRefused: 0,
    handshakesAccepted: 0,
    handshakesRejected: 0,
    handshakesHeld: 0,
    handshakeTimeouts: 0,
    connectionsReplaced: 0,
    packetsAcked: 0,
    recordsAcked: 0,
    crcFailures: 0,
    malformedPackets: 0,
    recordsNotAcked: 0,
    packetTimeouts: 0,
    idleTimeouts: 0,
  };
}
