import { createHash } from 'node:crypto';

/** Keys are kept and looked up only as their SHA-256 (hex): the table never holds a key that could be used. */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey, 'utf8').digest('hex');
