import type { Queue } from "bullmq";
import type { Logger } from "pino";
import {
  deadLettersOwed,
  extendLeases,
  markDeadLettersMirrored,
  pendingPublishes,
  type Db,
  type PageCursor,
  type RecoveryPage,
} from "@catalog/db";
import { publishKeys, type DeadLetter, type PublishQueues, type RedisClient } from "@catalog/queue";

const PAGE = 1_000;

/** Reads pages until one comes short, handing each on; returns how many rows there were. */
async function eachPage<T>(
  read: (after: PageCursor | undefined) => Promise<RecoveryPage<T>>,
  handle: (rows: T[]) => Promise<void>,
): Promise<number> {
  let count = 0;
  for (let after: PageCursor | undefined; ;) {
    const page = await read(after);
    if (page.rows.length > 0) await handle(page.rows);
    count += page.rows.length;
    if (page.rows.length < PAGE) return count;
    after = page.last;
  }
}

/**
 * PostgreSQL is the record of what was accepted; Redis can lose it (flush, restart without
 * persistence). Every interval one worker process (whichever takes the recovery lock) compares:
 *  - when Redis lost its epoch marker, everything still `queued` or `running` is enqueued again,
 *    and every `dead` publish gets its dead-letter job again;
 *  - otherwise only publishes whose lease ran out (nobody has touched them for a while) are, and
 *    only the dead ones whose dead-letter job the worker could not confirm.
 * Enqueueing is idempotent (job id = sync log id): a job still waiting or running in Redis is not
 * duplicated, a leftover with the same id that would swallow the add is replaced (see
 * `PublishQueues.requeue`), and a re-delivered job that already finished is skipped by the worker.
 */
export class Recovery {
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<unknown> | null = null;

  constructor(
    private readonly db: Db,
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly queues: PublishQueues,
    private readonly deadLetters: Queue<DeadLetter>,
    private readonly options: { intervalMs: number; pendingLeaseMs: number },
    private readonly log: Logger,
  ) {}

  start() {
    const tick = () => {
      this.pass = this.runOnce()
        .catch((err) => this.log.warn({ err }, "recovery pass failed; will try again"))
        .finally(() => {
          this.pass = null;
          if (this.timer) this.timer = setTimeout(tick, this.options.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pass;
  }

  /** One pass; returns how many publishes were enqueued again. */
  async runOnce(): Promise<number> {
    const keys = publishKeys(this.prefix);
    const mine = await this.redis.set(
      keys.recovery,
      process.pid.toString(),
      "PX",
      this.options.intervalMs,
      "NX",
    );
    if (mine !== "OK") return 0;
    const redisLostWork =
      (await this.redis.set(keys.epoch, new Date().toISOString(), "NX")) === "OK";
    // After a Redis loss everything; otherwise only what nobody confirmed in time.
    const expiredBefore = redisLostWork ? undefined : new Date();
    let replaced = 0;
    const enqueued = await eachPage(
      (after) => pendingPublishes(this.db, { expiredBefore, limit: PAGE, after }),
      async (publishes) => {
        replaced += await this.queues.requeue(publishes, { thorough: redisLostWork });
        await extendLeases(
          this.db,
          publishes.map((p) => p.syncLogId),
          this.options.pendingLeaseMs,
        );
      },
    );
    const mirrored = await eachPage(
      (after) => deadLettersOwed(this.db, { expiredBefore, limit: PAGE, after }),
      async (letters) => {
        await this.deadLetters.addBulk(
          letters.map((letter) => ({
            name: "dead",
            data: letter,
            opts: { jobId: letter.syncLogId },
          })),
        );
        await markDeadLettersMirrored(
          this.db,
          letters.map((p) => p.syncLogId),
        );
      },
    );
    if (enqueued > 0 || mirrored > 0) {
      this.log.info(
        { enqueued, replaced, deadLetters: mirrored, afterRedisLoss: redisLostWork },
        "recovery enqueued pending publishes again",
      );
    }
    return enqueued;
  }
}
