/**
 * A connection's reads: bytes come from the kernel only when the parser can use them, and one parse runs at a time
 * (reading waits while a frame is being stored: a device sends its next frame only after the answer anyway).
 *
 * A small read that leaves a frame unfinished makes the next read wait READ_COALESCE_MS, twice as long after each
 * such read up to MAX_READ_COALESCE_MS, so bytes trickled one at a time gather in the socket's buffer and are read
 * together: a packet sent a byte at a time costs a few reads, not one per byte. A finished frame reads on at once, so
 * a device sending whole packets never waits; the packet deadline still runs from the first byte.
 */
import type { Socket } from 'node:net';
import type { ByteQueue } from './byte-queue.ts';

const SMALL_CHUNK_BYTES = 1024;
const READ_COALESCE_MS = 100;
const MAX_READ_COALESCE_MS = 1600;

export class PacedReader {
  /** bytes the queue must hold before parsing can progress */
  needed = 1;
  private stopped = false;
  private parsing = false;
  private coalescing = false;
  private lastReadSmall = false;
  /** how long a read after a small one waits while the frame is unfinished: 0 once a frame is finished */
  private coalesceMs = 0;
  private readonly socket: Socket;
  private readonly queue: ByteQueue;
  private readonly parse: () => Promise<void>;

  /** `parse` takes what it can from the queue, setting `needed` when it stops for more bytes. */
  constructor(socket: Socket, queue: ByteQueue, parse: () => Promise<void>) {
    this.socket = socket;
    this.queue = queue;
    this.parse = parse;
  }

  start(): void {
    this.socket.on('readable', () => this.drain());
  }

  /** No byte is read any more: the connection only waits to answer and close. */
  stop(): void {
    this.stopped = true;
  }

  /** Takes in every byte the socket holds (a read copies them once), then parses when they can make progress. */
  private drain(): void {
    if (this.socket.destroyed || this.stopped || this.parsing || this.coalescing) return;
    let read = 0;
    for (let chunk = this.socket.read() as Buffer | null; chunk !== null; chunk = this.socket.read() as Buffer | null) {
      this.queue.push(chunk);
      read += chunk.length;
    }
    if (read === 0) return;
    this.lastReadSmall = read < SMALL_CHUNK_BYTES;
    if (this.queue.length >= this.needed) {
      this.coalesceMs = 0;
      void this.runParse();
      return;
    }
    if (this.lastReadSmall) this.coalesceMs = Math.min(Math.max(this.coalesceMs * 2, READ_COALESCE_MS), MAX_READ_COALESCE_MS);
    this.readOn();
  }

  private async runParse(): Promise<void> {
    if (this.parsing) return;
    this.parsing = true;
    try {
      await this.parse();
    } finally {
      this.parsing = false;
      this.readOn();
    }
  }

  /** Reads on at once after a large read or a finished frame, coalesceMs later while a frame trickles in. */
  private readOn(): void {
    if (!this.lastReadSmall || this.coalesceMs === 0) {
      this.drain();
      return;
    }
    this.coalescing = true;
    setTimeout(() => {
      this.coalescing = false;
      this.lastReadSmall = false;
      this.drain();
    }, this.coalesceMs).unref();
  }
}
