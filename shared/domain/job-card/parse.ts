/** Reading a job card document: JSON text of an object, kept byte for byte, nested no deeper than the store can serialise. */
import { BadRequest } from '../../errors.ts';
import { isPlainObject } from '../json.ts';

export const PAYLOAD_NOT_JSON = 'payload is not valid JSON';
/**
 * Deeper documents come only from abuse, and many clients' recursive JSON readers overflow their stack on them when reading a
 * card back.
 */
export const MAX_PAYLOAD_DEPTH = 64;
export const PAYLOAD_TOO_DEEP = `payload is nested too deeply (max ${MAX_PAYLOAD_DEPTH} levels)`;

/** The document as received (`text`, kept byte for byte) and as parsed. */
export interface JobCardPayload {
  text: string;
  value: Record<string, unknown>;
}

export function parsePayload(text: string): JobCardPayload {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadRequest(PAYLOAD_NOT_JSON, { cause: error });
  }
  return asPayload(text, value);
}

export function asPayload(text: string, value: unknown): JobCardPayload {
  if (!isPlainObject(value)) throw new BadRequest(PAYLOAD_NOT_JSON);
  if (deeperThan(value, MAX_PAYLOAD_DEPTH)) throw new BadRequest(PAYLOAD_TOO_DEEP);
  return { text, value };
}

/** Whether objects and arrays nest more than `levels` deep; without recursion, as the value may be too deep for it. */
function deeperThan(value: object, levels: number): boolean {
  const pending: Array<readonly [unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > levels) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}
