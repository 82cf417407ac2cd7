export {
  producerConnection,
  workerConnection,
  type RedisClient,
  type RedisEndpoint,
} from "./connections.js";
export { escapeGlob, scanMatching, unlinkMatching } from "./unlink-matching.js";
export * from "./scrape-queue.js";
export * from "./source-watch-queue.js";
export { EvictionPolicyError, requireNoEviction, type StartupLog } from "./eviction-policy.js";
export { startWorkerHealth, type MetricsSource, type ReadinessCheck } from "./worker-health.js";
export { probe, type DependencyHealth } from "./probe.js";
export { sharedScrapeRead } from "./scrape-read.js";
export * from "./publish-keys.js";
export { RedisLock } from "./redis-lock.js";
export * from "./publish-queue.js";
export * from "./destination-state.js";
export { readPublishQueueDepth, type PublishQueueDepth } from "./queue-depth.js";
export * from "./webhook-queue.js";
export * from "./retention-queue.js";
export { PublishBatches, type BatchJobLock, type TakenJob } from "./publish-batch.js";
