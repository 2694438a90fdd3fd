/** Rendered live maps in S3, named by the fingerprint of what they show (the bucket expires them). */
import { findObject, putObject } from './bucket.ts';

const objectKey = (fingerprint: string): string => {
  if (!/^[0-9a-f]{64}$/.test(fingerprint)) throw new Error('a live map is stored under its SHA-256 fingerprint');
  return `livemaps/${fingerprint}.png`;
};

export const findCachedMap = (fingerprint: string): Promise<Uint8Array | undefined> => findObject(objectKey(fingerprint));

export const saveCachedMap = (fingerprint: string, png: Uint8Array): Promise<void> => putObject(objectKey(fingerprint), png, 'image/png');
