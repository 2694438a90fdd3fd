import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../shared/domain/api-key.ts';

describe('hashApiKey', () => {
  it("is the key's SHA-256 in lower-case hex", () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the UTF-8 bytes of a key that is not ASCII', () => {
    // SHA-256 of the two bytes C3 A9 ("é" in UTF-8), not of the one Latin-1 byte E9
    expect(hashApiKey('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});
