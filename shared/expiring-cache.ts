/** A Lambda container's memory of recent lookups, each kept at most `ttlMs` (0: nothing is kept). */
export interface ExpiringCache<V> {
  get(key: string): V | undefined;
  /** keeps the value `ttlMs`, or until `until` (ms since the epoch) when that comes sooner */
  set(key: string, value: V, until?: number): void;
}

export function expiringCache<V>(ttlMs: number, now: () => number = Date.now): ExpiringCache<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now()) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key, value, until = Number.POSITIVE_INFINITY) {
      if (ttlMs <= 0) return;
      // Unbounded growth is not a risk in practice (a container serves one fleet's devices), but a cap costs nothing.
      if (entries.size >= 10_000) entries.clear();
      entries.set(key, { value, expiresAt: Math.min(now() + ttlMs, until) });
    },
  };
}
