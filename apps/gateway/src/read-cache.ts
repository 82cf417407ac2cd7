/**
 * An in-process cache of reads, grouped (by org, say) so that one change drops a whole group.
 * Each group has a generation: a load that started before an invalidation is not stored, so a
 * slow read can never put back what a write has just replaced. Concurrent misses for one key
 * share one load, so a cold popular page costs one query, not one per waiting client. While
 * `enabled` is false (the change feed is down) every read goes to the database.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { group: string; generation: number; until: number; value: V }>();
  private readonly generations = new Map<string, number>();
  private readonly loading = new Map<string, { generation: number; promise: Promise<V> }>();
  private isEnabled = false;

  constructor(private readonly options: { maxEntries: number; maxAgeMs: number }) {}

  get enabled(): boolean {
    return this.isEnabled;
  }

  /** Turning the cache off or on forgets everything: it may have missed changes meanwhile. */
  set enabled(value: boolean) {
    this.isEnabled = value;
    this.clear();
  }

  /** `until` may shorten an entry's life (a session's expiry); a time already past keeps it out. */
  async getOrLoad(group: string, key: string, load: () => Promise<V>, until?: (value: V) => number): Promise<V> {
    if (!this.isEnabled) return load();
    const id = `${group}\u0000${key}`;
    const generation = this.generations.get(group) ?? 0;
    const hit = this.entries.get(id);
    const now = Date.now();
    if (hit && hit.generation === generation && hit.until > now) {
      // Refresh its place in the eviction order.
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit.value;
    }
    const shared = this.loading.get(id);
    if (shared && shared.generation === generation) return shared.promise;
    const promise = load();
    this.loading.set(id, { generation, promise });
    let value: V;
    try {
      value = await promise;
    } finally {
      if (this.loading.get(id)?.promise === promise) this.loading.delete(id);
    }
    const expires = Math.min(now + this.options.maxAgeMs, until?.(value) ?? Infinity);
    if (this.isEnabled && (this.generations.get(group) ?? 0) === generation && expires > Date.now()) {
      this.entries.delete(id);
      this.entries.set(id, { group, generation, until: expires, value });
      if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }

  /** Drops every entry of `group`, including loads still in flight. */
  invalidate(group: string): void {
    this.generations.set(group, (this.generations.get(group) ?? 0) + 1);
  }

  clear(): void {
    this.entries.clear();
    for (const group of this.generations.keys()) this.invalidate(group);
  }
}
