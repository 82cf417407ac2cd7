import fp from "fastify-plugin";
import type { FastifyInstance } from "fastify";
import type { Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { scrapeQueue, scrapeQueueEvents, workerConnection, type ScrapeJob, type ScrapeResult } from "@catalog/queue";

declare module "fastify" {
  interface FastifyInstance {
    queues: { scrape: Queue<ScrapeJob, ScrapeResult>; scrapeEvents: QueueEvents };
  }
}

/**
 * The queues the gateway enqueues on. Enqueueing uses the gateway's fail-fast connection
 * (Redis down: 503 at once); the events listener blocks, so it has a connection of its own.
 */
export const queuesPlugin = fp(
  async (app: FastifyInstance, options: { redis: Redis; redisUrl: string; prefix: string }) => {
    const eventsConnection = workerConnection(options.redisUrl);
    const scrape = scrapeQueue(options.redis, options.prefix);
    const scrapeEvents = scrapeQueueEvents(eventsConnection, options.prefix);
    scrape.on("error", (err) => app.log.warn({ err }, "scrape queue connection error"));
    scrapeEvents.on("error", (err) => app.log.warn({ err }, "scrape queue events connection error"));
    app.decorate("queues", { scrape, scrapeEvents });
    app.addHook("onClose", async () => {
      await scrapeEvents.close();
      await scrape.close();
      eventsConnection.disconnect();
    });
  },
  { name: "queues" },
);
