// Horizontal scale of the publish workers: the same work through 1, 2 and 4 worker processes on
// one host, against a stand-in channel that answers every call after a realistic latency.
//   pnpm exec tsx bench/scale-out-bench.ts [--processes 1,2,4] [--lanes 4] [--destinations 200] [--products 5] [--latency-ms 150]
// Each process gets a fixed number of lanes (concurrent publishes), as a container gets a fixed
// share of a machine: what is measured is how throughput grows with processes, so the processes'
// lanes, not this host's cores, must be what runs out. See bench/README.md.
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { loadPublishWorkerConfig } from "@catalog/config/publish-worker";
import type { ChildServer } from "./child-server.js";
import { runBench, type CleanupStack } from "./cleanup-stack.js";
import { startDeployment } from "./publish-deployment.js";
import { setStoreLatency, standinCounts, startStandin } from "./standin-control.js";

const { values } = parseArgs({
  options: {
    processes: { type: "string", default: "1,2,4" },
    lanes: { type: "string", default: "4" },
    destinations: { type: "string", default: "200" },
    products: { type: "string", default: "5" },
    "latency-ms": { type: "string", default: "150" },
    "log-level": { type: "string", default: "info" },
  },
});
const counts = values.processes.split(",").map(Number);
const destinations = Number(values.destinations);
const products = Number(values.products);
const lanes = Number(values.lanes);
const latencyMs = Number(values["latency-ms"]);
for (const [name, n] of [
  ["processes", Math.min(...counts)],
  ["lanes", lanes],
  ["destinations", destinations],
  ["products", products],
] as const) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be whole numbers >= 1`);
}
if (!Number.isFinite(latencyMs) || latencyMs < 0)
  throw new Error("--latency-ms must be a number >= 0");

interface Run {
  processes: number;
  jobs: number;
  seconds: number;
  jobsPerSecond: number;
  doneTwice: number;
  retried: number;
  /** Channel calls per publish, from the stand-in's counters. */
  callsPerPublish: number;
}

async function run(
  cleanup: CleanupStack,
  standin: ChildServer,
  processes: number,
  workerEnv: Record<string, string>,
): Promise<Run> {
  const baseDatabaseUrl =
    process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const deployment = await startDeployment(cleanup, `scale-${processes}`, {
    baseDatabaseUrl,
    redisUrl,
    standinUrl: standin.url,
    products,
    workers: processes,
    workerEnv,
  });
  const stores = await deployment.addDestinations(destinations, "scale");
  await setStoreLatency(
    standin,
    stores.map((d) => d.store),
    latencyMs,
  );
  const started = Date.now();
  const ids = await deployment.publish(
    deployment.productIds,
    stores.map((d) => d.id),
  );
  const { lastFinishedAt, retried } = await deployment.waitForSucceeded(ids);
  const seconds = (lastFinishedAt - started) / 1000;
  // Every job is a first publish of its product in its store: a store that holds more
  // listings than products, or saw an update, had a job done twice.
  const counted = [
    ...(
      await standinCounts(
        standin,
        stores.map((d) => d.store),
      )
    ).values(),
  ];
  const doneTwice = counted.reduce(
    (sum, c) => sum + Math.max(0, c.create - products) + c.update,
    0,
  );
  const calls = counted.reduce((sum, c) => sum + c.requests, 0);
  for (const w of deployment.workers)
    if (w.problems.count > 0)
      console.log(
        `  ${w.name}: ${w.problems.count} warnings/errors logged, first: ${w.problems.first.join("\n    ")}`,
      );
  await deployment.close();
  return {
    processes,
    jobs: ids.length,
    seconds,
    jobsPerSecond: ids.length / seconds,
    doneTwice,
    retried,
    callsPerPublish: calls / ids.length,
  };
}

async function main(cleanup: CleanupStack): Promise<boolean> {
  const workerEnv = { LOG_LEVEL: values["log-level"], PUBLISH_LANES: String(lanes) };
  const config = loadPublishWorkerConfig({
    ...process.env,
    ...workerEnv,
    CREDENTIALS_KEYS: "bench",
  });
  console.log(
    `scale-out bench: node ${process.version}, ${availableParallelism()} CPUs; ${destinations} destinations x ${products} products = ` +
      `${destinations * products} publishes per run, the stand-in answering each call after ${latencyMs} ms`,
  );
  console.log(
    `workers: apps/publish-worker/src/main.ts processes on this host, PUBLISH_LANES=${config.PUBLISH_LANES} each, ` +
      `DESTINATION_CONCURRENCY=${config.DESTINATION_CONCURRENCY}; each run is a deployment of its own (database, Redis prefix)`,
  );
  const standin = await startStandin(cleanup);

  const runs: Run[] = [];
  for (const processes of counts) {
    const result = await run(cleanup, standin, processes, workerEnv);
    console.log(
      `  ${processes} process${processes === 1 ? "" : "es"}: ${result.jobs} publishes in ${result.seconds.toFixed(2)} s`,
    );
    runs.push(result);
  }
  const base = runs.find((r) => r.processes === 1) ?? runs[0]!;
  console.log("");
  console.log(
    "processes | publishes | seconds | publishes/s | ratio to 1 | done twice | retried | calls/publish",
  );
  for (const r of runs) {
    console.log(
      `${String(r.processes).padStart(9)} | ${String(r.jobs).padStart(9)} | ${r.seconds.toFixed(2).padStart(7)} | ` +
        `${r.jobsPerSecond.toFixed(1).padStart(11)} | ${(r.jobsPerSecond / base.jobsPerSecond).toFixed(2).padStart(10)} | ` +
        `${String(r.doneTwice).padStart(10)} | ${String(r.retried).padStart(7)} | ${r.callsPerPublish.toFixed(2).padStart(13)}`,
    );
  }
  const twice = runs.reduce((sum, r) => sum + r.doneTwice, 0);
  console.log(`\n[${twice === 0 ? "PASS" : "FAIL"}] nothing done twice (${twice})`);
  const growing = runs.every((r, i) => i === 0 || r.jobsPerSecond > runs[i - 1]!.jobsPerSecond);
  console.log(`[${growing ? "PASS" : "FAIL"}] throughput grows with each step in processes`);
  return true;
}

await runBench(main);
