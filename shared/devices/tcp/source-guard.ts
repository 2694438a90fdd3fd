/**
 * What the device server remembers across connections to keep guessers and floods out while registered devices come
 * and go freely (docs/devices.md, "Security"): connections and handshakes in progress per source address, each
 * source's budget of refused handshakes (the api keys' GCRA, shared/domain/token-bucket.ts), and the device ids
 * (IMEIs) found unknown, so a repeated guess costs no table read.
 */
import { type BucketPolicy, latestPassingTat, tatAfter } from '../../domain/token-bucket.ts';

export interface SourceGuardSettings {
  maxConnectionsPerSource: number;
  maxPendingHandshakesPerSource: number;
  /** refused handshakes a source may have answered at once; beyond, each refusal is held before its answer */
  refusals: BucketPolicy;
  unknownDeviceMemoryMs: number;
}

/** Entries a map may hold before it is pruned: far more sources and guesses than a task sees in its memory window. */
const MAX_ENTRIES = 100_000;

export class SourceGuard {
  private readonly connections = new Map<string, number>();
  private readonly pending = new Map<string, number>();
  private readonly refusalTats = new Map<string, number>();
  private readonly unknownDevices = new Map<string, number>();
  private readonly settings: SourceGuardSettings;
  private readonly now: () => number;

  constructor(settings: SourceGuardSettings, now: () => number = Date.now) {
    this.settings = settings;
    this.now = now;
  }

  /** A new connection from `source`: false (not counted) when the source already holds its cap. */
  admit(source: string): boolean {
    return increment(this.connections, source, this.settings.maxConnectionsPerSource);
  }

  release(source: string): void {
    decrement(this.connections, source);
  }

  /** A handshake begins: false when the source has its cap of handshakes in progress (a guesser's held refusals). */
  beginHandshake(source: string): boolean {
    return increment(this.pending, source, this.settings.maxPendingHandshakesPerSource);
  }

  endHandshake(source: string): void {
    decrement(this.pending, source);
  }

  /** Takes one refusal from the source's bucket: false when it has none left (the refusal is then held). */
  takeRefusal(source: string): boolean {
    const now = this.now();
    const tat = this.refusalTats.get(source);
    if (tat !== undefined && tat > latestPassingTat(this.settings.refusals, now)) return false;
    prune(this.refusalTats, (at) => at < now);
    this.refusalTats.set(source, tatAfter(this.settings.refusals, now, tat));
    return true;
  }

  isKnownUnknown(deviceId: string): boolean {
    const until = this.unknownDevices.get(deviceId);
    if (until !== undefined && until > this.now()) return true;
    this.unknownDevices.delete(deviceId);
    return false;
  }

  rememberUnknown(deviceId: string): void {
    const now = this.now();
    prune(this.unknownDevices, (until) => until <= now);
    this.unknownDevices.set(deviceId, now + this.settings.unknownDeviceMemoryMs);
  }
}

/** One more for `key`, unless it already holds `cap`: false then, and nothing counted. */
function increment(counts: Map<string, number>, key: string, cap: number): boolean {
  const held = counts.get(key) ?? 0;
  if (held >= cap) return false;
  counts.set(key, held + 1);
  return true;
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 0) - 1;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}

/** Drops the expired entries once the map is large, and the oldest half when none has expired. */
function prune(entries: Map<string, number>, expired: (value: number) => boolean): void {
  if (entries.size < MAX_ENTRIES) return;
  for (const [key, value] of entries) if (expired(value)) entries.delete(key);
  if (entries.size < MAX_ENTRIES) return;
  let drop = entries.size / 2;
  for (const key of entries.keys()) {
    if (drop-- <= 0) break;
    entries.delete(key);
  }
}
