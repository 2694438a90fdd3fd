/** The cursor's seal (shared/paging/cursor.ts): opaque, bound to its scope, and to the key it was sealed under. */
import { afterEach, describe, expect, it } from 'vitest';
import { INVALID_CURSOR } from '../../shared/contracts/paging.ts';
import { openCursor, sealCursor } from '../../shared/paging/cursor.ts';

const scope = { operation: 'getEvents', userUid: 7, filters: { vehicle_uid: 3 } };
const position = { position: { after: '2026-11-29T10:00:00.000Z#000000000123' }, taken: 40 };
const keyBefore = process.env.CURSOR_KEY;

afterEach(() => {
  if (keyBefore === undefined) delete process.env.CURSOR_KEY;
  else process.env.CURSOR_KEY = keyBefore;
});

describe('a cursor', () => {
  it('opens to the position it was sealed with, under the same key', async () => {
    // Prepare
    process.env.CURSOR_KEY = 'first key';
    const cursor = await sealCursor(scope, position);
    // Act
    const opened = await openCursor(scope, cursor);
    // Assess
    expect(opened).toEqual(position);
  });

  it('is refused once the key is another, and a cursor sealed under the new key opens', async () => {
    // Prepare
    process.env.CURSOR_KEY = 'first key';
    const underTheFirst = await sealCursor(scope, position);
    // Act
    process.env.CURSOR_KEY = 'second key';
    const underTheSecond = await sealCursor(scope, position);
    // Assess
    await expect(openCursor(scope, underTheFirst)).rejects.toThrow(INVALID_CURSOR);
    await expect(openCursor(scope, underTheSecond)).resolves.toEqual(position);
  });

  it("is refused for another user's request, though sealed under the same key", async () => {
    // Prepare
    process.env.CURSOR_KEY = 'first key';
    const cursor = await sealCursor(scope, position);
    // Act
    const opened = openCursor({ ...scope, userUid: 8 }, cursor);
    // Assess
    await expect(opened).rejects.toThrow(INVALID_CURSOR);
  });
});
