import fp from "fastify-plugin";
import type { FastifyInstance } from "fastify";
import type { Queue, QueueEvents } from "bullmq";
import {
  PublishQueues,
  WebhookQueue,
  deadLetterQueue,
  scrapeQueue,
  scrapeQueueEvents,
  sourceWatchQueue,
  workerConnection,
  type DeadLetter,
  type RedisClient,
  type RedisEndpoint,
  type ScrapeJob,
  type ScrapeResult,
  type SourceCheckJob,
} from "@catalog/queue";

declare module "fastify" {
  interface FastifyInstance {
    queues: {
      scrape: Queue<ScrapeJob, ScrapeResult>;
      scrapeEvents: QueueEvents;
      /** One queue per destination account, created on first use. */
      publish: PublishQueues;
      deadLetters: Queue<DeadLetter>;
      /** Source watch: the watched products' schedulers and "check now" jobs. */
      sourceWatch: Queue<SourceCheckJob>;
      /** Webhook deliveries, enqueued at once (the sender's sweep finds any that are not). */
      webhooks: WebhookQueue;
    };
  }
}

/**
 * The queues the gateway enqueues on. Enqueueing uses the gateway's fail-fast connection
 * (Redis down: 503 at once); the events listener blocks, so it has a connection of its own.
 */
export const queuesPlugin = fp(
  async (
    app: FastifyInstance,
    options: { redis: RedisClient; endpoint: RedisEndpoint; prefix: string },
  ) => {
    const eventsConnection = workerConnection(options.endpoint);
    const scrape = scrapeQueue(options.redis, options.prefix);
    const scrapeEvents = scrapeQueueEvents(eventsConnection, options.prefix);
    scrape.on("error", (err) => app.log.warn({ err }, "scrape queue connection error"));
    scrapeEvents.on("error", (err) =>
      app.log.warn({ err }, "scrape queue events connection error"),
    );
    const publish = new PublishQueues(options.redis, options.prefix);
    const deadLetters = deadLetterQueue(options.redis, options.prefix);
    const sourceWatch = sourceWatchQueue(options.redis, options.prefix);
    sourceWatch.on("error", (err) => app.log.warn({ err }, "source watch queue connection error"));
    const webhooks = new WebhookQueue(options.redis, options.prefix);
    app.decorate("queues", { scrape, scrapeEvents, publish, deadLetters, sourceWatch, webhooks });
    app.addHook("onClose", async () => {
      await sourceWatch.close();
      await publish.close();
      await deadLetters.close();
      await webhooks.close();
      await scrapeEvents.close();
      await scrape.close();
      eventsConnection.disconnect();
    });
  },
  { name: "queues" },
);
