/**
 * A connection's unread bytes as the chunks they arrived in: a frame is copied out once, when it is whole, so a
 * packet sent a byte at a time costs what one sent at once (no buffer re-copied on every byte).
 */
export class ByteQueue {
  private chunks: Buffer[] = [];
  /** bytes of the first chunk already taken */
  private offset = 0;
  length = 0;

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The first `count` bytes (at most `length`), left in the queue. */
  peek(count: number): Buffer {
    return this.copy(Math.min(count, this.length), false);
  }

  /** The first `count` bytes (at most `length`), taken out of the queue. */
  take(count: number): Buffer {
    return this.copy(Math.min(count, this.length), true);
  }

  private copy(count: number, consume: boolean): Buffer {
    const first = this.chunks[0];
    if (first && first.length - this.offset >= count) {
      const bytes = first.subarray(this.offset, this.offset + count);
      if (consume) this.advance(count);
      return bytes;
    }
    const bytes = Buffer.allocUnsafe(count);
    let copied = 0;
    let offset = this.offset;
    for (const chunk of this.chunks) {
      if (copied === count) break;
      copied += chunk.copy(bytes, copied, offset, Math.min(chunk.length, offset + count - copied));
      offset = 0;
    }
    if (consume) this.advance(count);
    return bytes;
  }

  private advance(count: number): void {
    this.length -= count;
    let left = count;
    while (left > 0) {
      const first = this.chunks[0] as Buffer;
      const inFirst = first.length - this.offset;
      if (inFirst > left) {
        this.offset += left;
        return;
      }
      left -= inFirst;
      this.chunks.shift();
      this.offset = 0;
    }
  }
}
