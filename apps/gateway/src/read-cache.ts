import { LRUCache } from "lru-cache";

interface Entry<V> {
  group: string;
  stamp: string;
  until: number;
  value: V;
}

export interface ReadCacheOptions<V> {
  maxEntries: number;
  maxAgeMs: number;
  /** Bound on the sum of `sizeOf` over the entries (for large values such as serialized pages). */
  maxSize?: number;
  sizeOf?: (value: V) => number;
}

/**
 * An in-process cache of reads, grouped (by org, say) so that one change drops a whole group,
 * and its memory with it. Each group has a generation: a load that started before an
 * invalidation is not stored, so a slow read can never put back what a write has just
 * replaced. Each read also brings a stamp, what the shared store says about the freshness of
 * what it asks for (read before the load begins): an entry serves only reads bringing the stamp
 * it was stored with, and a null stamp (freshness unknown) always loads. Concurrent misses for
 * one key and stamp share one load, so a cold popular page costs one query, not one per waiting
 * client. While `enabled` is false (the change feed is down) every read goes to the database.
 *
 * When full, the entry read longest ago goes first (lru-cache, which moves a read entry in
 * constant time: a Map's delete and set again costs a hot key time in proportion to the
 * entries held, 9 µs a read at 5,000 entries, see bench/read-cache-bench.ts).
 */
export class ReadCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly groups = new Map<string, Set<string>>();
  private readonly generations = new Map<string, number>();
  private readonly loading = new Map<
    string,
    { generation: number; stamp: string; promise: Promise<V> }
  >();
  private isEnabled = false;

  constructor(private readonly options: ReadCacheOptions<V>) {
    const { maxSize, sizeOf } = options;
    const limits: LRUCache.Options<string, Entry<V>, unknown> = {
      max: options.maxEntries,
      // Evicted, replaced or deleted: the entry leaves its group.
      dispose: (entry, id) => this.groups.get(entry.group)?.delete(id),
    };
    if (maxSize !== undefined && sizeOf) {
      limits.maxSize = maxSize;
      // Sizes must be positive: an empty value counts as 1.
      limits.sizeCalculation = (entry) => Math.max(1, sizeOf(entry.value));
    }
    this.entries = new LRUCache(limits);
  }

  get enabled(): boolean {
    return this.isEnabled;
  }

  /** Turning the cache off or on forgets everything: it may have missed changes meanwhile. */
  set enabled(value: boolean) {
    this.isEnabled = value;
    this.clear();
  }

  /** The value of a live entry whatever its stamp, to know which stamps to ask for. */
  peek(group: string, key: string): V | undefined {
    const entry = this.isEnabled ? this.entries.peek(`${group}\u0000${key}`) : undefined;
    return entry && entry.until > Date.now() ? entry.value : undefined;
  }

  /** `until` may shorten an entry's life (a session's expiry); a time already past keeps it out. */
  async getOrLoad(
    group: string,
    key: string,
    stamp: string | null,
    load: () => Promise<V>,
    until?: (value: V) => number,
  ): Promise<V> {
    if (!this.isEnabled || stamp === null) return load();
    const id = `${group}\u0000${key}`;
    const generation = this.generations.get(group) ?? 0;
    const hit = this.entries.get(id);
    if (hit && hit.until > Date.now() && hit.stamp === stamp) return hit.value;
    const shared = this.loading.get(id);
    if (shared && shared.generation === generation && shared.stamp === stamp) return shared.promise;
    const promise = load();
    this.loading.set(id, { generation, stamp, promise });
    let value: V;
    try {
      value = await promise;
    } finally {
      if (this.loading.get(id)?.promise === promise) this.loading.delete(id);
    }
    const expires = Math.min(Date.now() + this.options.maxAgeMs, until?.(value) ?? Infinity);
    if (
      this.isEnabled &&
      (this.generations.get(group) ?? 0) === generation &&
      expires > Date.now()
    ) {
      this.store(id, { group, stamp, until: expires, value });
    }
    return value;
  }

  /** Drops every entry of `group`, including loads still in flight. */
  invalidate(group: string): void {
    this.generations.set(group, (this.generations.get(group) ?? 0) + 1);
    const ids = this.groups.get(group);
    this.groups.delete(group);
    for (const id of ids ?? []) this.entries.delete(id);
  }

  clear(): void {
    for (const group of [...this.groups.keys(), ...this.generations.keys()]) this.invalidate(group);
  }

  /** An entry larger than `maxSize` is not kept (lru-cache's rule). */
  private store(id: string, entry: Entry<V>): void {
    this.entries.set(id, entry);
    if (!this.entries.has(id)) return;
    let ids = this.groups.get(entry.group);
    if (!ids) this.groups.set(entry.group, (ids = new Set()));
    ids.add(id);
  }
}
