import { createHash } from 'node:crypto';

/** Keys are kept and looked up only as their SHA-256 (hex): the table never holds a key that could be used. */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey, 'utf8').digest('hex');

/** How stale a key's last use may be before the credentials step records it again: one write per key an hour at most. */
export const LAST_USED_RESOLUTION_MS = 3_600_000;
