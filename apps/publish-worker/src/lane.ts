import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { PublishBatches, type RedisClient } from "@catalog/queue";
import type { DestinationPicker, Lease } from "./destination-picker.js";
import { startHeartbeat } from "./heartbeat.js";
import type { LaneQueues } from "./lane-queues.js";
import type { LanePace } from "./lane-pace.js";
import { processBatch } from "./publish-processor.js";
import type { ProcessorDeps } from "./processor-deps.js";
import type { RateGate } from "./rate-gate.js";

export interface LaneOptions {
  sliceMs: number;
  sliceJobs: number;
  /** Time to live of job locks and product locks (the destination lease has the same). */
  lockMs: number;
  /** How often the destination lease is renewed while the lane serves it. */
  heartbeatMs: number;
  idlePollMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * One lane serves one destination at a time: it leases the destination, takes its jobs a batch
 * at a time for a time slice (publish-processor.ts runs a batch), then gives the destination back
 * to the line. Lanes share the process's one Redis connection (the batches are taken and ended
 * by scripts, not by a BullMQ Worker and its blocking connection), so a process's connections
 * stay bounded however many destinations and lanes there are.
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
    private readonly queues: LaneQueues,
    private readonly pace: LanePace,
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
    const queue = this.queues.get(destinationId);
    const batches = new PublishBatches(
      this.connection,
      this.prefix,
      destinationId,
      this.token,
      this.options.lockMs,
    );
    // Leases are renewed per lane, not per job: one beat renews the destination lease and the
    // locks of the batch in flight (its jobs' and their products'), however long a call takes.
    let leaseLost = false;
    let held: string[] = [];
    const heartbeat = startHeartbeat(
      this.options.heartbeatMs,
      async () => {
        const [renewed] = await Promise.all([lease.lock.renew(), batches.renew(held)]);
        if (!renewed) leaseLost = true;
      },
      (err) => this.log.warn({ err, destinationId }, "could not renew the destination lease"),
    );
    try {
      await this.queues.checkStalled(queue);
      const limited = await this.rate.limits(destinationId);
      const deadline = Date.now() + this.options.sliceMs;
      let taken = 0;
      while (
        !this.stopping &&
        !leaseLost &&
        taken < this.options.sliceJobs &&
        Date.now() < deadline
      ) {
        if (limited) {
          const limitedUntil = await this.rate.take(destinationId);
          if (limitedUntil) {
            await this.picker.postpone(destinationId, limitedUntil);
            return;
          }
        }
        const size = limited
          ? 1
          : this.pace.batchSize(
              destinationId,
              deadline - Date.now(),
              this.options.sliceJobs - taken,
            );
        let jobs = await batches.take(size);
        if (jobs.length === 0) {
          await this.picker.settle(destinationId);
          return;
        }
        // The breaker is read once a batch, once there is a job to send: a half-open probe is won
        // only with a job in hand, and is that one job alone.
        const gate = await this.deps.breakers.gate(destinationId);
        if (!gate.pass || (gate.probe && jobs.length > 1)) {
          const back = gate.pass ? jobs.slice(1) : jobs;
          await batches.end(
            [],
            back.map((j) => batches.lockOf(j)),
          );
          if (!gate.pass) {
            await this.picker.postpone(destinationId, gate.until);
            return;
          }
          jobs = jobs.slice(0, 1);
        }
        taken += jobs.length;
        const began = Date.now();
        const verdict = await processBatch(
          this.deps,
          {
            destinationId,
            queue,
            batches,
            token: this.token,
            signal: this.abort.signal,
            probe: gate.probe,
            hold: (keys) => void (held = keys),
          },
          jobs,
        );
        held = [];
        this.pace.observe(destinationId, (Date.now() - began) / jobs.length);
        if (verdict.pause) {
          await this.picker.postpone(destinationId, verdict.until);
          return;
        }
      }
    } finally {
      heartbeat.stop();
    }
  }
}
