import type { Queue } from "bullmq";
import type { Logger } from "pino";
import type { ChannelRegistry } from "@catalog/channels";
import type { CredentialKeyring, Db } from "@catalog/db";
import type { DeadLetter, RedisClient } from "@catalog/queue";
import type { BreakerRegistry } from "./breaker-registry.js";
import type { PublishMetrics } from "./metrics.js";
import type { RetryPolicy } from "./retry-policy.js";

/** What every job of a lane runs with (publish, update and end alike). */
export interface ProcessorDeps {
  db: Db;
  redis: RedisClient;
  prefix: string;
  keyring: CredentialKeyring;
  channels: ChannelRegistry;
  breakers: BreakerRegistry;
  deadLetters: Queue<DeadLetter>;
  policy: RetryPolicy;
  /** Time to live of the job's lock and of the per (product, destination) lock. */
  lockMs: number;
  /** How often those are renewed while the job runs. */
  heartbeatMs: number;
  channelTimeoutMs: number;
  pendingLeaseMs: number;
  log: Logger;
  metrics: PublishMetrics;
}
