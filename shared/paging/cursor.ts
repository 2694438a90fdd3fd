import { createCipheriv, createDecipheriv, createHash, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { config } from '../config.ts';
import { INVALID_CURSOR } from '../contracts/paging.ts';
import { BadRequest } from '../errors.ts';
import { secretString } from '../telemetry.ts';

/**
 * What a cursor binds: the operation, the key's user and the request's filters (as a digest), and where the next
 * page starts. Sealed with AES-256-GCM, so it is opaque (its contents are not readable) and any change to it, or a
 * cursor sealed under another key, fails the authentication tag.
 */
export interface CursorScope {
  operation: string;
  userUid: number;
  /** the validated request without limit and cursor */
  filters: unknown;
}

interface Sealed {
  o: string;
  u: number;
  f: string;
  /** where the next page starts (the operation's own shape) */
  p: unknown;
  /** records answered by the pages before, for an operation with a cap on the whole walk (getJobCards' 1000) */
  n: number;
}

export interface CursorPosition<Position> {
  position: Position;
  taken: number;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

const filtersDigest = (filters: unknown): string => createHash('sha256').update(JSON.stringify(filters)).digest('base64url');

export async function sealCursor<Position>(scope: CursorScope, { position, taken }: CursorPosition<Position>): Promise<string> {
  const sealed: Sealed = { o: scope.operation, u: scope.userUid, f: filtersDigest(scope.filters), p: position, n: taken };
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await cursorKey(), iv);
  const text = Buffer.concat([cipher.update(JSON.stringify(sealed), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, text, cipher.getAuthTag()]).toString('base64url');
}

/** The position a cursor holds, or BadRequest when it was altered, sealed for another user, operation or filters. */
export async function openCursor<Position>(scope: CursorScope, cursor: string): Promise<CursorPosition<Position>> {
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.toString('base64url') !== cursor) throw new BadRequest(INVALID_CURSOR);
  let sealed: Sealed;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await cursorKey(), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    sealed = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString());
  } catch {
    throw new BadRequest(INVALID_CURSOR);
  }
  if (sealed.o !== scope.operation || sealed.u !== scope.userUid || sealed.f !== filtersDigest(scope.filters)) {
    throw new BadRequest(INVALID_CURSOR);
  }
  return { position: sealed.p as Position, taken: sealed.n };
}

/** Drawn once per process when no key is configured: cursors then live as long as the local server. */
let processKey: KeyObject | undefined;

/** The key made from the latest key text: made once, not per call (a raw key is imported at every cipher, 9 µs). */
let keyOfText: { text: string; key: KeyObject } | undefined;

/**
 * The sealing key, read on first use (module init does no I/O): CURSOR_KEY locally, else the Secrets Manager
 * secret the stack creates and names in CURSOR_KEY_SECRET (cached an hour, as the providers' keys are), else a
 * key drawn for this process.
 */
async function cursorKey(): Promise<KeyObject> {
  const secretName = config.cursorKeySecret();
  const text = config.cursorKey() ?? (secretName ? await secretString(secretName) : undefined);
  if (text === undefined) {
    processKey ??= createSecretKey(randomBytes(32));
    return processKey;
  }
  if (keyOfText?.text !== text) keyOfText = { text, key: createSecretKey(createHash('sha256').update(text, 'utf8').digest()) };
  return keyOfText.key;
}
