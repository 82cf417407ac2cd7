interface Entry<V> {
  group: string;
  stamp: string;
  until: number;
  size: number;
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
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly groups = new Map<string, Set<string>>();
  private readonly generations = new Map<string, number>();
  private readonly loading = new Map<
    string,
    { generation: number; stamp: string; promise: Promise<V> }
  >();
  private size = 0;
  private isEnabled = false;

  constructor(private readonly options: ReadCacheOptions<V>) {}

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
    const entry = this.isEnabled ? this.entries.get(`${group}\u0000${key}`) : undefined;
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
    if (hit && hit.until > Date.now() && hit.stamp === stamp) {
      // Refresh its place in the eviction order.
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit.value;
    }
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
      this.store(id, {
        group,
        stamp,
        until: expires,
        size: this.options.sizeOf?.(value) ?? 0,
        value,
      });
    }
    return value;
  }

  /** Drops every entry of `group`, including loads still in flight. */
  invalidate(group: string): void {
    this.generations.set(group, (this.generations.get(group) ?? 0) + 1);
    for (const id of this.groups.get(group) ?? []) this.remove(id);
    this.groups.delete(group);
  }

  clear(): void {
    for (const group of [...this.groups.keys(), ...this.generations.keys()]) this.invalidate(group);
  }

  private store(id: string, entry: Entry<V>): void {
    this.remove(id);
    this.entries.set(id, entry);
    this.size += entry.size;
    let ids = this.groups.get(entry.group);
    if (!ids) this.groups.set(entry.group, (ids = new Set()));
    ids.add(id);
    const maxSize = this.options.maxSize ?? Infinity;
    while (this.entries.size > this.options.maxEntries || this.size > maxSize)
      this.remove(this.entries.keys().next().value!);
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.size -= entry.size;
    this.groups.get(entry.group)?.delete(id);
  }
}
