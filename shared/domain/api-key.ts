import { hash } from 'node:crypto';

/**
 * Keys are kept and looked up only as their SHA-256 (hex): the table never holds a key that could be used. Every call
 * hashes its key: the one-shot `hash` (UTF-8 in, hex out) takes a tenth of a Hash object's time.
 */
export const hashApiKey = (apiKey: string): string => hash('sha256', apiKey);

/** How stale a key's last use may be before the credentials step records it again: one write per key an hour at most. */
export const LAST_USED_RESOLUTION_MS = 3_600_000;
