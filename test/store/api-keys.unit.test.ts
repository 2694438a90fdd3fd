import { describe, expect, it } from 'vitest';
import { newApiKey } from '../../shared/store/api-keys.ts';

/** Random bytes that come out as the given draws, one per call. */
const draws = (...buffers: Buffer[]) => {
  let call = 0;
  return (size: number): Buffer => {
    const buffer = buffers[call++] as Buffer;
    expect(buffer.length).toBe(size);
    return buffer;
  };
};

describe('newApiKey', () => {
  it('draws again when a key would start with "-" or "_", which CLIs and shells read as an option', () => {
    // Prepare: 0xf8 encodes as "-" first, 0xfc as "_", 0x00 as "A"
    const random = draws(Buffer.alloc(32, 0xf8), Buffer.alloc(32, 0xfc), Buffer.alloc(32, 0x00));
    // Act
    const key = newApiKey(random);
    // Assess
    expect(key).toBe(Buffer.alloc(32, 0x00).toString('base64url'));
    expect(Buffer.alloc(32, 0xf8).toString('base64url')).toMatch(/^-/);
    expect(Buffer.alloc(32, 0xfc).toString('base64url')).toMatch(/^_/);
  });

  it('keeps a key of 256 random bits in 43 base64url characters', () => {
    expect(newApiKey()).toMatch(/^[A-Za-z0-9][\w-]{42}$/);
  });
});
