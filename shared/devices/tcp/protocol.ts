/**
 * What a device protocol tells the device server (device-server.ts), which owns everything else: the socket, its
 * reads, the deadlines, the caps, the negative cache, one connection per device, and the sink before any answer. The
 * protocol says where the hello and each frame end in a connection's bytes, what a registered and a refused device
 * are answered, and, per connection, turns each whole frame into records and the answer written once the sink has
 * them. It reads bytes and returns values; it never touches the socket. Recipe: docs/devices.md, "Adding a protocol".
 */
import type { SinkRecord } from '../position-sink.ts';
import type { ByteQueue } from './byte-queue.ts';

/**
 * Bytes that are not the protocol: the device server counts them, logs them and closes the connection unanswered.
 * `checksum`: a whole frame whose checksum does not match (counted as `crcFailures`); `framing`: anything else
 * (`malformedPackets`).
 */
export class BytesRefused extends Error {
  readonly kind: 'checksum' | 'framing';
  constructor(kind: 'checksum' | 'framing', message: string) {
    super(message);
    this.kind = kind;
  }
}

/** The head of the queue is not whole yet: parsing progresses once the queue holds `needed` bytes. */
export interface Incomplete {
  kind: 'incomplete';
  needed: number;
}

/** The hello at the head of the queue: the device's id, in its first `bytes` bytes. */
export interface Hello {
  kind: 'hello';
  bytes: number;
  deviceId: string;
}

/** A frame at the head of the queue: `skip` carries nothing (a keep-alive), `frame` goes to the session. */
export interface FrameHead {
  kind: 'skip' | 'frame';
  bytes: number;
}

/** What the sink must take before `answer` is written; `count` is the records the device sent (unusable ones too). */
export interface FrameOutcome {
  records: readonly SinkRecord[];
  count: number;
  answer: Buffer;
}

/** One accepted device's connection: its whole frames, in order. Per-connection state lives here, never in a module. */
export interface DeviceSession {
  /** undefined: nothing to store or answer */
  handleFrame(frame: Buffer): FrameOutcome | undefined;
}

/** `Device`: what `findDevice` answers for a registered device id, which `openSession` is given. */
export interface DeviceProtocol<Device> {
  /** the protocol in log lines ("teltonika handshake refused: …") */
  readonly name: string;
  /** what the device id is called in log lines ("IMEI"), lower-cased as their field */
  readonly deviceIdName: string;
  /** answered to a registered device's hello, and to a refused one's before the close */
  readonly accepted: Buffer;
  readonly refused: Buffer;
  /** Throws BytesRefused when the head cannot become a hello. */
  readHello(queue: ByteQueue): Incomplete | Hello;
  /** Throws BytesRefused when the head cannot become a frame (before it is whole, where the header already says so). */
  readFrame(queue: ByteQueue): Incomplete | FrameHead;
  openSession(deviceId: string, device: Device): DeviceSession;
}
