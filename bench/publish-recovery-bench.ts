// Publish recovery after a Redis flush (issue 32, the growth table): N publishes accepted (sync logs
// `queued` in PostgreSQL), then Redis loses everything under the deployment's prefix (the epoch
// marker too, as flush_redis or a restart without persistence does); the recovery re-enqueues them
// from PostgreSQL and the workers finish them. See bench/README.md.
//   pnpm exec tsx bench/publish-recovery-bench.ts [--jobs 10000,100000] [--destinations 100] [--processes 1]
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { redisKeyPrefix } from "@catalog/config";
import { pendingPublishes } from "@catalog/db";
import { PublishQueues, deadLetterQueue } from "@catalog/queue";
import { deleteRedisPrefix } from "@catalog/testing";
import { createWorkerLogger } from "../apps/publish-worker/src/logger.js";
import { Recovery } from "../apps/publish-worker/src/recovery.js";
import { runBench, type CleanupStack } from "./cleanup-stack.js";
import { startDeployment } from "./publish-deployment.js";
import { standinCounts, startStandin } from "./standin-control.js";

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(cleanup: CleanupStack): Promise<boolean> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      jobs: { type: "string", default: "10000,100000" },
      destinations: { type: "string", default: "100" },
      processes: { type: "string", default: "1" },
      timeout: { type: "string", default: "3600" },
    },
  });
  const sizes = values.jobs.split(",").map(Number);
  const destinations = Number(values.destinations);
  const processes = Number(values.processes);
  const timeoutMs = Number(values.timeout) * 1000;
  for (const n of sizes)
    if (!Number.isInteger(n) || n < destinations || n % destinations !== 0)
      throw new Error(`--jobs (${n}) must be a multiple of --destinations (${destinations})`);
  const baseDatabaseUrl =
    process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  console.log(
    `publish recovery after a flush: ${sizes.map((n) => fmt(n)).join(", ")} pending publishes over ${destinations} destinations, ` +
      `${processes} worker process(es) (worker defaults, LOG_LEVEL=info as deployed); node ${process.version}, ${availableParallelism()} CPUs`,
  );
  console.log(
    "each size: a deployment of its own; the publishes are recorded as the gateway records them but never reach Redis, then the prefix is deleted " +
      "(what a flush leaves); the clock starts there. Re-enqueue: one recovery pass (the workers' Recovery.runOnce, run by this process); " +
      "finish: the last sync log succeeded (workers' finished_at). Quiet pass: before the flush, the recovery's page of expired leases " +
      "when none has expired (what the pass every interval costs with that backlog waiting).",
  );
  const standin = await startStandin(cleanup);
  const rows: string[][] = [];
  for (const n of sizes) {
    const deployment = await startDeployment(cleanup, `r${n}`, {
      baseDatabaseUrl,
      redisUrl,
      standinUrl: standin.url,
      products: n / destinations,
      workers: processes,
      // Only this process's pass recovers (the workers' own first pass ran at their start).
      workerEnv: { RECOVERY_INTERVAL_MS: "3600000" },
    });
    const dests = await deployment.addDestinations(destinations, "r");
    const recordStarted = Date.now();
    await deployment.publish(
      deployment.productIds,
      dests.map((d) => d.id),
      { enqueue: false },
    );
    const recordMs = Date.now() - recordStarted;
    // The pass every interval while nothing has expired: its page of the publishes whose lease ran
    // out before the recording started finds none (each was given its lease after), so it costs
    // only what it reads to learn that. Median of five.
    const quietMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const quiet = await pendingPublishes(deployment.db, {
        expiredBefore: new Date(recordStarted),
        limit: 1_000,
      });
      quietMs.push(performance.now() - t);
      if (quiet.rows.length > 0) throw new Error("a lease ran out before it was given");
    }
    const quietPassMs = quietMs.sort((a, b) => a - b)[2]!;
    await deleteRedisPrefix({ REDIS_URL: redisUrl, REDIS_CLUSTER: false }, deployment.prefix);

    const keyPrefix = redisKeyPrefix(deployment.prefix);
    const queues = new PublishQueues(deployment.redis, keyPrefix);
    const deadLetters = deadLetterQueue(deployment.redis, keyPrefix);
    const recovery = new Recovery(
      deployment.db,
      deployment.redis,
      keyPrefix,
      queues,
      deadLetters,
      { intervalMs: 600_000, pendingLeaseMs: 60_000 },
      createWorkerLogger("silent"),
    );
    const started = Date.now();
    const enqueued = await recovery.runOnce();
    const requeueMs = Date.now() - started;
    let summary: { pending: number; bad: number; last: number } = { pending: n, bad: 0, last: 0 };
    while (Date.now() - started < timeoutMs) {
      const { rows: counted } = await deployment.pg.query<{
        pending: string;
        bad: string;
        last: number | null;
      }>(
        `SELECT count(*) FILTER (WHERE status IN ('queued', 'running')) AS pending,
                count(*) FILTER (WHERE status NOT IN ('queued', 'running', 'succeeded')) AS bad,
                extract(epoch FROM max(finished_at)) * 1000 AS last FROM sync_logs`,
      );
      const row = counted[0]!;
      summary = { pending: Number(row.pending), bad: Number(row.bad), last: Number(row.last ?? 0) };
      if (summary.pending === 0 || summary.bad > 0) break;
      if (deployment.workers.some((w) => !w.alive())) throw new Error("a worker exited");
      await sleep(500);
    }
    const finishMs = summary.last - started;
    const counts = await standinCounts(
      standin,
      dests.map((d) => d.store),
    );
    const creates = [...counts.values()].reduce((a, c) => a + c.create, 0);
    const updates = [...counts.values()].reduce((a, c) => a + c.update, 0);
    const ok = summary.pending === 0 && summary.bad === 0 && creates === n && updates === 0;
    console.log(
      `${fmt(n)}: recorded in ${fmt(recordMs)} ms; a pass with none expired ${fmt(quietPassMs, 1)} ms; re-enqueued ${fmt(enqueued)} in ${fmt(requeueMs)} ms (${fmt(enqueued / (requeueMs / 1000))}/s); ` +
        `all finished ${(finishMs / 1000).toFixed(1)} s after the flush (${fmt(n / (finishMs / 1000))} jobs/s); ` +
        `stand-in: ${fmt(creates)} creates, ${updates} updates; not succeeded: ${summary.pending} pending, ${summary.bad} failed`,
    );
    rows.push([
      fmt(n),
      fmt(quietPassMs, 1),
      (requeueMs / 1000).toFixed(2),
      (finishMs / 1000).toFixed(1),
      fmt(n / (finishMs / 1000)),
      ok ? "PASS" : "FAIL",
    ]);
    for (const w of deployment.workers)
      if (w.problems.count > 0)
        console.log(
          `${w.name}: ${w.problems.count} warnings/errors logged, first: ${w.problems.first.join("\n  ")}`,
        );
    await deadLetters.close();
    await queues.close();
    await deployment.close();
  }
  console.log("\npending  quiet pass ms  re-enqueue s  finish s  jobs/s  every publish once");
  for (const r of rows) console.log(r.join("  "));
  for (const r of rows)
    console.log(
      `[${r[5]}] r: ${r[0]} publishes recovered after a flush, each published once: re-enqueued in ${r[2]} s, finished in ${r[3]} s`,
    );
  return true;
}

await runBench(main);
