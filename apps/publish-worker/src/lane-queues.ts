import { Queue } from "bullmq";
import { LRUCache } from "lru-cache";
import { publishQueueName, queuePrefix, type PublishJob, type RedisClient } from "@catalog/queue";

/** BullMQ's stalled-job check, which a Queue's backend runs (a Worker runs it from its own loop). */
interface StalledCheck {
  backend: { moveStalledJobsToWait(): Promise<string[]> };
}

/**
 * The destination queues this process's lanes serve, on the process's one connection (lanes take
 * jobs with their own scripts, publish-batch.ts in @catalog/queue, so they need no blocking
 * connection). A Queue costs a round trip when it is made, so the `keep` served most recently are
 * kept (lru-cache: a Map's delete and set again per use slows a busy key's lookups, see
 * apps/gateway/src/read-cache.ts), and the one served longest ago is closed to make room.
 */
export class LaneQueues {
  private readonly queues: LRUCache<string, Queue<PublishJob>>;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly options: { lockMs: number; keep: number },
  ) {
    this.queues = new LRUCache({
      max: options.keep,
      dispose: (queue, _id, reason) => {
        if (reason === "evict") void queue.close().catch(() => {});
      },
    });
  }

  get(destinationId: string): Queue<PublishJob> {
    let queue = this.queues.get(destinationId);
    if (queue) return queue;
    queue = new Queue<PublishJob>(publishQueueName(destinationId), {
      connection: this.redis,
      prefix: queuePrefix(this.prefix),
      // What the stalled check reads (a Worker's options): a job whose worker died goes back to
      // waiting however often that happens; the attempt count lives in PostgreSQL.
      ...({
        maxStalledCount: 1_000,
        stalledInterval: Math.max(1_000, Math.floor(this.options.lockMs / 2)),
      } as object),
    });
    queue.on("error", () => {
      /* the command that failed reports it */
    });
    this.queues.set(destinationId, queue);
    return queue;
  }

  /**
   * Jobs whose worker died mid-job go back to waiting once their lock has expired (BullMQ's check,
   * throttled per queue to once per stalled interval by BullMQ itself).
   */
  async checkStalled(queue: Queue<PublishJob>): Promise<void> {
    await (queue as unknown as StalledCheck).backend.moveStalledJobsToWait();
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => {})));
    this.queues.clear();
  }
}
