/**
 * A connection's three deadlines (docs/devices.md, "Security"): the hello's answer within `handshakeTimeoutMs` of
 * accepting, a frame whole within `packetTimeoutMs` of its first byte, and an answered frame at least every
 * `idleTimeoutMs` (bytes that make no frame, keep-alives among them, do not count). Each closes the socket and counts
 * itself when it passes.
 */
import type { Socket } from 'node:net';

export interface DeadlineSettings {
  handshakeTimeoutMs: number;
  packetTimeoutMs: number;
  idleTimeoutMs: number;
}

type Counter = 'handshakeTimeouts' | 'packetTimeouts' | 'idleTimeouts';

export class Deadlines {
  private readonly handshake: NodeJS.Timeout;
  private packet: NodeJS.Timeout | undefined;
  private idle: NodeJS.Timeout | undefined;
  private readonly socket: Socket;
  private readonly counters: Record<Counter, number>;
  private readonly settings: DeadlineSettings;

  /** Starts the handshake's deadline. */
  constructor(socket: Socket, counters: Record<Counter, number>, settings: DeadlineSettings) {
    this.socket = socket;
    this.counters = counters;
    this.settings = settings;
    this.handshake = setTimeout(this.closeWith('handshakeTimeouts'), settings.handshakeTimeoutMs);
  }

  /** The hello is answered (or refused: the refusal's own timing takes over). */
  handshakeDone(): void {
    clearTimeout(this.handshake);
  }

  /** A frame has begun and is not whole: its deadline runs from the first time this is said. */
  frameBegun(): void {
    this.packet ??= setTimeout(this.closeWith('packetTimeouts'), this.settings.packetTimeoutMs);
  }

  frameWhole(): void {
    clearTimeout(this.packet);
    this.packet = undefined;
  }

  /** The device was answered (accepted, or a frame acknowledged): the idle deadline starts again. */
  answered(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(this.closeWith('idleTimeouts'), this.settings.idleTimeoutMs);
  }

  clear(): void {
    clearTimeout(this.handshake);
    clearTimeout(this.packet);
    clearTimeout(this.idle);
  }

  private closeWith(counter: Counter): () => void {
    return () => {
      this.counters[counter]++;
      this.socket.destroy();
    };
  }
}
