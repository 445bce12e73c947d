/**
 * Values remembered for a short time in this process: for public answers read far more often than they change, where
 * a few seconds of staleness across replicas is the accepted price. Bounded: the oldest entry goes when it is full.
 */
export function createTtlCache<Key, Value>({ ttlMs, maxEntries }: { ttlMs: number; maxEntries: number }) {
  const entries = new Map<Key, { at: number; value: Promise<Value> }>();
  return {
    /** The remembered value, or `load`'s (shared by concurrent callers; a failed load is not remembered). */
    get(key: Key, load: () => Promise<Value>): Promise<Value> {
      const now = Date.now();
      const entry = entries.get(key);
      if (entry && now - entry.at < ttlMs) return entry.value;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const value = load();
      entries.set(key, { at: now, value });
      value.catch(() => entries.delete(key));
      return value;
    },

    forget(matches: (key: Key) => boolean): void {
      for (const key of entries.keys()) if (matches(key)) entries.delete(key);
    },
  };
}
