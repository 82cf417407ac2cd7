import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { readPublishQueueDepth, sharedScrapeRead, type RedisClient } from "@catalog/queue";
import type { BreakerRegistry } from "./breaker-registry.js";

export type PublishJobOutcome = "succeeded" | "retried" | "waited" | "failed" | "dead";

/** How many destinations get a series of their own in the queue-depth metric. */
const TOP_DESTINATIONS = 10;

/**
 * One publish worker process's Prometheus metrics: job outcomes and channel call latency counted
 * as they happen; breakers and queue depth read when scraped. The queue depth is the shared
 * queues' (every worker reports the same figure: aggregate with max, not sum).
 */
export function createPublishMetrics(redis: RedisClient, prefix: string) {
  const registry = new Registry();
  const registers = [registry];
  let breakers: BreakerRegistry | null = null;
  const jobs = new Counter({
    name: "catalog_publish_jobs_total",
    help: "Publish attempts by channel and outcome",
    labelNames: ["channel", "outcome"] as const,
    registers,
  });
  const channelCalls = new Histogram({
    name: "catalog_channel_call_duration_seconds",
    help: "One publish's calls to a channel, by channel and result",
    labelNames: ["channel", "result"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
    registers,
  });
  new Gauge({
    name: "catalog_breakers",
    help: "This process's destination breakers by state",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const states = breakers?.states() ?? { closed: 0, open: 0, halfOpen: 0 };
      for (const [state, count] of Object.entries(states)) this.set({ state }, count);
    },
  });
  // One Redis read per scrape serves the queue gauges. A failed read keeps their last figures,
  // and catalog_publish_queue_read_errors says so.
  const read = sharedScrapeRead(() =>
    readPublishQueueDepth(redis, prefix, { top: TOP_DESTINATIONS }),
  );
  const jobsInQueue: Gauge<"state"> = new Gauge({
    name: "catalog_publish_queue_jobs",
    help: "Publish jobs in the shared queues by state (waiting, active, delayed)",
    labelNames: ["state"] as const,
    registers,
    collect: () =>
      read().then(
        (depth) => {
          for (const [state, count] of Object.entries(depth.totals))
            jobsInQueue.set({ state }, count);
        },
        () => {},
      ),
  });
  const destinations: Gauge = new Gauge({
    name: "catalog_publish_queue_destinations",
    help: "Destinations with publish jobs in line",
    registers,
    collect: () =>
      read().then(
        (depth) => destinations.set(depth.destinations),
        () => {},
      ),
  });
  const topDestinations: Gauge<"destination"> = new Gauge({
    name: "catalog_publish_queue_destination_waiting",
    help: `Jobs waiting for the ${TOP_DESTINATIONS} destinations with the most`,
    labelNames: ["destination"] as const,
    registers,
    collect: () =>
      read().then(
        (depth) => {
          topDestinations.reset();
          for (const { destinationId, waiting } of depth.top)
            topDestinations.set({ destination: destinationId }, waiting);
        },
        () => {},
      ),
  });
  const readErrors: Gauge = new Gauge({
    name: "catalog_publish_queue_read_errors",
    help: "1 when this scrape could not read the queue depth from Redis",
    registers,
    collect: () =>
      read().then(
        () => readErrors.set(0),
        () => readErrors.set(1),
      ),
  });
  return {
    registry,
    /** The breakers whose states are reported. */
    watchBreakers: (registry: BreakerRegistry) => void (breakers = registry),
    job: (channel: string, outcome: PublishJobOutcome) => jobs.inc({ channel, outcome }),
    /** Times `call` as one channel call of `channel`. */
    async timeCall<T>(channel: string, call: () => Promise<T>): Promise<T> {
      const end = channelCalls.startTimer({ channel });
      try {
        const result = await call();
        end({ result: "ok" });
        return result;
      } catch (error) {
        end({ result: "error" });
        throw error;
      }
    },
  };
}

export type PublishMetrics = ReturnType<typeof createPublishMetrics>;
