/** The listener's queue of unread bytes: frames read across the chunks they arrived in, each byte copied at most once. */
import { describe, expect, it } from 'vitest';
import { ByteQueue } from '../../shared/devices/tcp/byte-queue.ts';

const queueOf = (...chunks: string[]) => {
  const queue = new ByteQueue();
  for (const chunk of chunks) queue.push(Buffer.from(chunk));
  return queue;
};

describe('ByteQueue', () => {
  it('peeks across chunks without taking, and takes in order', () => {
    const queue = queueOf('ab', 'c', '', 'defg');
    expect(queue.peek(4).toString()).toBe('abcd');
    expect(queue.length).toBe(7);
    expect(queue.take(3).toString()).toBe('abc');
    expect(queue.take(2).toString()).toBe('de');
    expect([queue.length, queue.peek(10).toString()]).toEqual([2, 'fg']);
  });

  it('hands out a frame inside one chunk as a view of it, without a copy', () => {
    const chunk = Buffer.from('0123456789');
    const queue = new ByteQueue();
    queue.push(chunk);
    queue.take(2);
    const frame = queue.take(5);
    expect(frame.toString()).toBe('23456');
    expect(frame.buffer).toBe(chunk.buffer);
  });

  it('takes a packet that came a byte at a time in one piece', () => {
    const packet = Buffer.from(Array.from({ length: 1000 }, (_, n) => n % 256));
    const queue = new ByteQueue();
    for (const byte of packet) queue.push(Buffer.from([byte]));
    expect(queue.take(packet.length).equals(packet)).toBe(true);
    expect(queue.length).toBe(0);
  });
});
