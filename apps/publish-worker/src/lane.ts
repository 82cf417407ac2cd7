import { randomUUID } from "node:crypto";
import { Worker } from "bullmq";
import type { Logger } from "pino";
import { publishQueueName, queuePrefix, type PublishJob, type RedisClient } from "@catalog/queue";
import type { DestinationPicker, Lease } from "./destination-picker.js";
import { startHeartbeat } from "./heartbeat.js";
import { processPublishJob } from "./publish-processor.js";
import type { ProcessorDeps } from "./processor-deps.js";
import type { RateGate } from "./rate-gate.js";

export interface LaneOptions {
  sliceMs: number;
  sliceJobs: number;
  /** Time to live of BullMQ's job locks (the destination lease has the same). */
  lockMs: number;
  /** How often the destination lease is renewed while the lane serves it. */
  heartbeatMs: number;
  idlePollMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * One lane serves one destination at a time: it leases the destination, opens a BullMQ Worker
 * on its queue (one Redis connection), takes jobs one by one for a time slice, then closes the
 * Worker and gives the destination back to the line. A process runs a fixed number of lanes,
 * so its connections stay bounded however many destinations exist.
 */
export class Lane {
  private stopping = false;
  private readonly token = randomUUID();
  private running: Promise<void> | null = null;
  /**
   * Aborted when shutdown's grace period is over: the channel call in flight is abandoned and
   * retried later.
   */
  readonly abort = new AbortController();

  constructor(
    private readonly connection: RedisClient,
    private readonly prefix: string,
    private readonly picker: DestinationPicker,
    private readonly rate: RateGate,
    private readonly deps: ProcessorDeps,
    private readonly options: LaneOptions,
    private readonly log: Logger,
  ) {}

  start() {
    this.running = this.loop();
  }

  /** Finishes the job in flight, then stops; `stop` resolves when the lane holds nothing. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  private async loop() {
    while (!this.stopping) {
      let lease: Lease | null = null;
      try {
        lease = await this.picker.acquire();
        if (!lease) {
          await sleep(this.options.idlePollMs * (0.5 + Math.random()));
          continue;
        }
        await this.serve(lease);
      } catch (error) {
        this.log.error(
          { err: error, destinationId: lease?.destinationId },
          "lane error; carrying on",
        );
        await sleep(this.options.idlePollMs);
      } finally {
        if (lease) await lease.lock.release().catch(() => {});
      }
    }
  }

  private async serve(lease: Lease) {
    const { destinationId } = lease;
    const worker = new Worker<PublishJob>(publishQueueName(destinationId), null, {
      connection: this.connection,
      prefix: queuePrefix(this.prefix),
      autorun: false,
      lockDuration: this.options.lockMs,
      stalledInterval: Math.max(1_000, Math.floor(this.options.lockMs / 2)),
      // Jobs that stall (their worker died) go back to the queue however often that happens;
      // the attempt count lives in PostgreSQL.
      maxStalledCount: 1_000,
    });
    worker.on("error", (err) => this.log.warn({ err, destinationId }, "queue connection error"));
    // The lease lives only a few seconds, so a worker that dies frees the destination soon; a
    // live lane renews it for as long as it serves, whatever one job takes.
    let leaseLost = false;
    const heartbeat = startHeartbeat(
      this.options.heartbeatMs,
      async () => {
        if (!(await lease.lock.renew())) leaseLost = true;
      },
      (err) => this.log.warn({ err, destinationId }, "could not renew the destination lease"),
    );
    try {
      // Jobs whose worker died mid-job go back to waiting once their lock has expired. BullMQ
      // runs this check from its own loop, which manual fetching does not use; it throttles
      // the check per queue by itself.
      await (
        worker as unknown as { moveStalledJobsToWait(): Promise<void> }
      ).moveStalledJobsToWait();
      const deadline = Date.now() + this.options.sliceMs;
      let taken = 0;
      while (
        !this.stopping &&
        !leaseLost &&
        taken < this.options.sliceJobs &&
        Date.now() < deadline
      ) {
        const limitedUntil = await this.rate.take(destinationId);
        if (limitedUntil) {
          await this.picker.postpone(destinationId, limitedUntil);
          return;
        }
        const job = await worker.getNextJob(this.token, { block: false });
        if (!job) {
          await this.picker.settle(destinationId);
          return;
        }
        taken++;
        const verdict = await processPublishJob(this.deps, job, this.token, this.abort.signal);
        if (verdict.pause) {
          await this.picker.postpone(destinationId, verdict.until);
          return;
        }
      }
    } finally {
      heartbeat.stop();
      await worker.close();
    }
  }
}
