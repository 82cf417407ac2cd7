import { LRUCache } from "lru-cache";

/**
 * How many jobs a lane takes in one batch: as many as the destination's recent jobs say fit in what
 * is left of the slice, so a batch never holds a destination much past its turn. A batch's attempts
 * are started together, so a slow channel (seconds a call) gets batches of one, a fast one
 * batches of up to the slice's jobs. A destination not seen yet starts with one job.
 */
export class LanePace {
  /** Kept for the 10,000 destinations served most recently. */
  private readonly perJobMs = new LRUCache<string, number>({ max: 10_000 });

  constructor(private readonly maxBatch: number) {}

  batchSize(destinationId: string, leftMs: number, leftJobs: number): number {
    const perJob = this.perJobMs.peek(destinationId);
    const fits = perJob === undefined ? 1 : Math.floor(leftMs / Math.max(perJob, 0.1));
    return Math.max(1, Math.min(fits, leftJobs, this.maxBatch));
  }

  /** One batch's time per job; recent batches weigh most. */
  observe(destinationId: string, msPerJob: number): void {
    const before = this.perJobMs.get(destinationId);
    this.perJobMs.set(
      destinationId,
      before === undefined ? msPerJob : before * 0.5 + msPerJob * 0.5,
    );
  }
}
