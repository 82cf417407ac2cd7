// The baseline of the publish bench: a plain BullMQ Worker on one queue whose job function does
// nothing, in a process of its own like the publish workers.
//   BENCH_QUEUE=<name> BENCH_BULL_PREFIX=<prefix> REDIS_URL=... node --import tsx bench/noop-worker.ts
import { Worker } from "bullmq";
import { Redis } from "ioredis";

const name = process.env.BENCH_QUEUE;
const prefix = process.env.BENCH_BULL_PREFIX;
if (!name || !prefix) {
  console.error("BENCH_QUEUE and BENCH_BULL_PREFIX are required");
  process.exit(2);
}
const connection = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", {
  maxRetriesPerRequest: null,
});
const worker = new Worker(name, async () => {}, {
  connection,
  prefix,
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 50),
});
worker.on("error", (err) => console.error(`no-op worker: ${err.message}`));
await worker.waitUntilReady();
console.log(`no-op worker ready (pid ${process.pid})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(
    signal,
    () =>
      void worker
        .close()
        .then(() => connection.disconnect())
        .then(() => process.exit(0)),
  );
}
