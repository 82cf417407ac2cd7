import type { Logger } from "pino";
import { parseKeyring, setDestinationHealth, type Db } from "@catalog/db";
import type { PublishWorkerConfig } from "@catalog/config/publish-worker";
import { createChannelRegistry } from "@catalog/channels";
import { PublishQueues, deadLetterQueue, publishKeys, type RedisClient } from "@catalog/queue";
import { BreakerRegistry } from "./breaker-registry.js";
import { DestinationPicker } from "./destination-picker.js";
import { Lane } from "./lane.js";
import { LanePace } from "./lane-pace.js";
import { LaneQueues } from "./lane-queues.js";
import { createPublishMetrics, type PublishMetrics } from "./metrics.js";
import { RateGate } from "./rate-gate.js";
import { Recovery } from "./recovery.js";

export interface PublishWorkerDeps {
  config: PublishWorkerConfig;
  db: Db;
  /**
   * A worker connection (`maxRetriesPerRequest: null`); each lane's Worker adds one blocking
   * connection.
   */
  redis: RedisClient;
  log: Logger;
  /** Where job outcomes and channel calls are counted (main.ts serves it on the health port). */
  metrics?: PublishMetrics;
}

export interface PublishWorker {
  recovery: Recovery;
  /**
   * Stops taking jobs, lets the jobs in flight finish (after `graceMs` their channel calls are
   * abandoned and the jobs go back to the queue for a later attempt), then releases everything.
   */
  close(graceMs?: number): Promise<void>;
}

/** Starts the lanes and the recovery of one publish worker process. */
export function startPublishWorker({
  config,
  db,
  redis,
  log,
  metrics: given,
}: PublishWorkerDeps): PublishWorker {
  const prefix = config.redisKeyPrefix;
  const metrics = given ?? createPublishMetrics(redis, prefix);
  const keys = publishKeys(prefix);
  const queues = new PublishQueues(redis, prefix);
  const deadLetters = deadLetterQueue(redis, prefix);
  const breakers = new BreakerRegistry(
    redis,
    prefix,
    {
      errorThresholdPercentage: config.BREAKER_ERROR_PERCENT,
      volumeThreshold: config.BREAKER_VOLUME,
      rollingCountTimeout: config.BREAKER_WINDOW_MS,
      resetTimeout: config.BREAKER_RESET_MS,
      probeTtlMs: config.CHANNEL_TIMEOUT_MS + 1_000,
    },
    (destinationId) => {
      log.warn({ destinationId }, "breaker opened");
      void setDestinationHealth(db, destinationId, "degraded").catch(() => {});
    },
  );
  metrics.watchBreakers(breakers);
  const picker = new DestinationPicker(redis, keys, {
    concurrency: config.DESTINATION_CONCURRENCY,
    leaseMs: config.JOB_LOCK_MS,
    recheckActiveMs: Math.max(1_000, Math.floor(config.JOB_LOCK_MS / 2)),
  });
  const channels = createChannelRegistry(config.channels, { timeoutMs: config.CHANNEL_TIMEOUT_MS });
  // A channel that declares its own limit (Amazon's per selling partner) holds its destinations
  // to it; the others keep DESTINATION_RATE_PER_SECOND.
  const rate = new RateGate(redis, prefix, {
    perSecond: config.DESTINATION_RATE_PER_SECOND,
    channelLimits: new Map(
      channels.channels().flatMap((c) => (c.rateLimit ? [[c.channel, c.rateLimit] as const] : [])),
    ),
    channelOf: async (id) =>
      (await db.destinationAccount.findUnique({ where: { id }, select: { channel: true } }))
        ?.channel ?? null,
  });
  const processorDeps = {
    db,
    redis,
    prefix,
    breakers,
    deadLetters,
    log,
    metrics,
    keyring: parseKeyring(config.CREDENTIALS_KEYS),
    channels,
    policy: { attempts: config.PUBLISH_ATTEMPTS, backoffMs: config.PUBLISH_BACKOFF_MS },
    lockMs: config.JOB_LOCK_MS,
    heartbeatMs: config.LEASE_HEARTBEAT_MS,
    channelTimeoutMs: config.CHANNEL_TIMEOUT_MS,
    pendingLeaseMs: config.PENDING_LEASE_MS,
  };
  const laneOptions = {
    sliceMs: config.SLICE_MS,
    sliceJobs: config.SLICE_JOBS,
    lockMs: config.JOB_LOCK_MS,
    heartbeatMs: config.LEASE_HEARTBEAT_MS,
    idlePollMs: 100,
  };
  const laneQueues = new LaneQueues(redis, prefix, {
    lockMs: config.JOB_LOCK_MS,
    keep: Math.max(64, config.PUBLISH_LANES * 4),
  });
  const pace = new LanePace(config.SLICE_JOBS);
  const lanes = Array.from(
    { length: config.PUBLISH_LANES },
    () => new Lane(redis, prefix, laneQueues, pace, picker, rate, processorDeps, laneOptions, log),
  );
  const recovery = new Recovery(
    db,
    redis,
    prefix,
    queues,
    deadLetters,
    { intervalMs: config.RECOVERY_INTERVAL_MS, pendingLeaseMs: config.PENDING_LEASE_MS },
    log,
  );
  for (const lane of lanes) lane.start();
  recovery.start();

  return {
    recovery,
    async close(graceMs = 20_000) {
      await recovery.stop();
      const abandon = setTimeout(
        () => lanes.forEach((lane) => lane.abort.abort(new Error("the worker is shutting down"))),
        graceMs,
      );
      await Promise.all(lanes.map((lane) => lane.stop()));
      clearTimeout(abandon);
      breakers.shutdown();
      await deadLetters.close();
      await laneQueues.close();
      await queues.close();
    },
  };
}
