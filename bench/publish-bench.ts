// The publishing pipeline under load (issue: bench a, b, c). See bench/README.md.
//   pnpm exec tsx bench/publish-bench.ts [--scenario a|b|c|all] [--rounds 3] [--jobs 10000] ...
import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { loadPublishWorkerConfig } from "@catalog/config/publish-worker";
import { redisKeyPrefix } from "@catalog/config";
import { queuePrefix } from "@catalog/queue";
import { deleteRedisPrefix, newRedisPrefix } from "@catalog/testing";
import { median } from "./bench-report.js";
import type { ChildServer } from "./child-server.js";
import { runBench, type CleanupStack } from "./cleanup-stack.js";
import { startNodeProcess, type NodeProcess } from "./node-process.js";
import {
  backendCpuBetween,
  callsBetween,
  cpuSeconds,
  machineCpu,
  postgresCounters,
  redisCounters,
  sampleRedisConnections,
  treeCpuSeconds,
} from "./proc-stats.js";
import { readPublishBenchOptions, type PublishBenchOptions } from "./publish-bench-options.js";
import { standinCounts, startStandin } from "./standin-control.js";
import {
  REQUEST_MAX_DESTINATIONS,
  REQUEST_MAX_PRODUCTS,
  startDeployment,
  type Destination,
  type PublishDeployment,
} from "./publish-deployment.js";
import { waitForIdleDatabase } from "./wait-for-idle-database.js";

// Issue 32's targets for scenario a: end to end against the no-op worker, and per job.
const MIN_RATIO = 0.15;
const MAX_WORKER_CPU_MS = 1.0;
const MAX_REDIS_CALLS = 25;
const MAX_PG_COMMITS = 1.5;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pct = (r: number) => `${(r * 100).toFixed(1)}%`;

interface Env {
  baseDatabaseUrl: string;
  redisUrl: string;
  standin: ChildServer;
  /** The bench's own connection: INFO counters and the baseline queue. */
  redis: Redis;
  options: PublishBenchOptions;
  workerEnv: Record<string, string>;
  workerNodeArgs: string[];
}

// ---------------------------------------------------------------------------------------------
// What a run cost: CPU of each party, Redis calls, PostgreSQL commits, stand-in requests.

interface Costs {
  wallSeconds: number;
  /** CPU seconds. */
  workers: number;
  postgres: number;
  redis: number;
  standin: number;
  bench: number;
  machineBusy: number;
  redisCalls: Map<string, number>;
  pgCommits: number;
  /** Filled in by the caller from the stand-in's counters. */
  httpRequests: number;
}

interface Meter {
  /**
   * Call when the run's work is done (CPU and Redis are read at once, PostgreSQL's counters a
   * second later).
   */
  finish(wallSeconds: number): Promise<Costs>;
}

async function startMeter(
  env: Env,
  workers: NodeProcess[],
  deployment?: PublishDeployment,
): Promise<Meter> {
  const workerCpu = async () =>
    (await Promise.all(workers.map((w) => cpuSeconds(w.pid)))).reduce((a, b) => a + b, 0);
  const benchCpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const read = async () => ({
    workers: await workerCpu(),
    standin: await treeCpuSeconds(env.standin.pid),
    bench: benchCpu(),
    machine: await machineCpu(),
    redis: await redisCounters(env.redis),
  });
  const pgBefore = deployment
    ? await postgresCounters(deployment.pg, deployment.databaseName)
    : undefined;
  const before = await read();
  return {
    async finish(wallSeconds) {
      const after = await read();
      const pgMid = deployment
        ? await postgresCounters(deployment.pg, deployment.databaseName)
        : undefined;
      // Backends publish their transaction counts at most once a second.
      if (deployment) await sleep(1_100);
      const pgAfter = deployment
        ? await postgresCounters(deployment.pg, deployment.databaseName)
        : undefined;
      return {
        wallSeconds,
        workers: after.workers - before.workers,
        postgres: pgBefore && pgMid ? backendCpuBetween(pgBefore.backends, pgMid.backends) : 0,
        redis: after.redis.cpu - before.redis.cpu,
        standin: after.standin - before.standin,
        bench: after.bench - before.bench,
        machineBusy: after.machine.busy - before.machine.busy,
        redisCalls: callsBetween(before.redis.calls, after.redis.calls),
        pgCommits: pgBefore && pgAfter ? pgAfter.commits - pgBefore.commits : 0,
        httpRequests: 0,
      };
    },
  };
}

const sumRequests = (counts: Map<string, { requests: number }>) =>
  [...counts.values()].reduce((a, c) => a + c.requests, 0);

// ---------------------------------------------------------------------------------------------
// Scenario a: end-to-end jobs/s against a no-op BullMQ worker.

interface Target {
  name: string;
  /** Jobs per run must be a multiple of this. */
  destinations: number;
  run(jobs: number, tag: string): Promise<RunResult>;
}

interface RunResult {
  jobs: number;
  enqueueMs: number;
  totalMs: number;
  jobsPerSecond: number;
  retried: number;
  costs: Costs;
}

async function baselineTarget(cleanup: CleanupStack, env: Env): Promise<Target> {
  const prefix = newRedisPrefix();
  cleanup.add(`delete Redis keys ${prefix}:* (baseline)`, () =>
    deleteRedisPrefix({ REDIS_URL: env.redisUrl, REDIS_CLUSTER: false }, prefix),
  );
  const name = "bench-noop";
  const bullPrefix = queuePrefix(redisKeyPrefix(prefix));
  const worker = await startNodeProcess(
    cleanup,
    "no-op worker",
    "bench/noop-worker.ts",
    {
      REDIS_URL: env.redisUrl,
      BENCH_QUEUE: name,
      BENCH_BULL_PREFIX: bullPrefix,
      BENCH_CONCURRENCY: "50",
    },
    "no-op worker ready",
  );
  const queue = new Queue(name, { connection: env.redis, prefix: bullPrefix });
  cleanup.add("close baseline queue", () => queue.close());
  const completedKey = `${bullPrefix}:${name}:completed`;
  const [orgId, productId, destinationAccountId] = [randomUUID(), randomUUID(), randomUUID()];

  return {
    name: "no-op BullMQ worker, 1 queue, concurrency 50",
    destinations: 1,
    async run(n) {
      // The same payload as a publish job (four ids), built before the clock starts.
      const jobs = Array.from({ length: n }, () => ({
        name: "noop",
        data: { syncLogId: randomUUID(), orgId, productId, destinationAccountId },
      }));
      const meter = await startMeter(env, [worker]);
      const started = Date.now();
      await queue.addBulk(jobs);
      const enqueueMs = Date.now() - started;
      const deadline = started + env.options.timeoutSeconds * 1000;
      while ((await env.redis.zcard(completedKey)) < n) {
        if (!worker.alive()) throw new Error("the no-op worker exited during the run");
        if (Date.now() > deadline)
          throw new Error(`baseline: not done after ${env.options.timeoutSeconds} s`);
        await sleep(20);
      }
      // BullMQ scores the completed set by each job's finishedOn, stamped by the worker.
      const [, last] = await env.redis.zrange(completedKey, "-1", "-1", "WITHSCORES");
      const totalMs = Number(last) - started;
      const costs = await meter.finish(totalMs / 1000);
      await queue.clean(0, n * 2, "completed");
      return {
        jobs: n,
        enqueueMs,
        totalMs,
        jobsPerSecond: n / (totalMs / 1000),
        retried: 0,
        costs,
      };
    },
  };
}

function candidateTarget(env: Env, deployment: PublishDeployment, destinations: number): Target {
  const processes = deployment.workers.length;
  return {
    name: `publish ${fmt(env.options.jobs / destinations)} products x ${destinations} destinations, ${processes} worker process${processes > 1 ? "es" : ""}`,
    destinations,
    async run(n, tag) {
      const productIds = deployment.productIds.slice(0, n / destinations);
      const dests = await deployment.addDestinations(destinations, tag);
      await waitForIdleDatabase(deployment.databaseUrl);
      const meter = await startMeter(env, deployment.workers, deployment);
      const started = Date.now();
      const ids = await deployment.publish(
        productIds,
        dests.map((d) => d.id),
      );
      const enqueueMs = Date.now() - started;
      const done = await deployment.waitForSucceeded(ids, {
        timeoutMs: env.options.timeoutSeconds * 1000,
      });
      const totalMs = done.lastFinishedAt - started;
      const costs = await meter.finish(totalMs / 1000);
      costs.httpRequests = sumRequests(
        await standinCounts(
          env.standin,
          dests.map((d) => d.store),
        ),
      );
      return {
        jobs: ids.length,
        enqueueMs,
        totalMs,
        jobsPerSecond: ids.length / (totalMs / 1000),
        retried: done.retried,
        costs,
      };
    },
  };
}

function perJob(costs: Costs, jobs: number) {
  const calls = [...costs.redisCalls.values()].reduce((a, b) => a + b, 0);
  const scripts = (costs.redisCalls.get("evalsha") ?? 0) + (costs.redisCalls.get("eval") ?? 0);
  return {
    redisCalls: calls / jobs,
    redisScripts: scripts / jobs,
    pgCommits: costs.pgCommits / jobs,
    http: costs.httpRequests / jobs,
    cpuMs: {
      workers: (costs.workers * 1000) / jobs,
      postgres: (costs.postgres * 1000) / jobs,
      redis: (costs.redis * 1000) / jobs,
      standin: (costs.standin * 1000) / jobs,
      bench: (costs.bench * 1000) / jobs,
    },
    cores: {
      workers: costs.workers / costs.wallSeconds,
      postgres: costs.postgres / costs.wallSeconds,
      redis: costs.redis / costs.wallSeconds,
      standin: costs.standin / costs.wallSeconds,
      bench: costs.bench / costs.wallSeconds,
      machine: costs.machineBusy / costs.wallSeconds,
    },
  };
}

function table(header: string[], lines: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => (l[c] ?? "").length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
      .join("  ");
  return [format(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(format)].join(
    "\n",
  );
}

async function scenarioA(cleanup: CleanupStack, env: Env): Promise<string[]> {
  const { options } = env;
  console.log(
    `\n=== a: ${fmt(options.jobs)} jobs end to end, publish pipeline vs a no-op BullMQ worker ===`,
  );
  const baseline = await baselineTarget(cleanup, env);
  const maxProducts = Math.max(...options.destinations.map((d) => options.jobs / d));
  const deployments: PublishDeployment[] = [];
  for (const processes of options.processes) {
    deployments.push(
      await startDeployment(cleanup, `a${processes}p`, {
        baseDatabaseUrl: env.baseDatabaseUrl,
        redisUrl: env.redisUrl,
        standinUrl: env.standin.url,
        products: maxProducts,
        workers: processes,
        workerEnv: env.workerEnv,
        workerNodeArgs: env.workerNodeArgs,
      }),
    );
  }
  const targets: Target[] = [baseline];
  for (const destinations of options.destinations)
    for (const d of deployments) targets.push(candidateTarget(env, d, destinations));
  console.log(
    `each deployment: own database (${fmt(maxProducts)} seeded products), own Redis prefix, its worker processes started once and kept;`,
  );
  console.log(
    "every candidate run publishes to destinations created for that run (fresh stand-in stores, so every job is a create).",
  );
  console.log(
    "timing: from the first enqueue call to the last finish stamped by a worker (sync log finished_at; BullMQ finishedOn for the baseline).",
  );

  process.stdout.write(
    `warm-up (about ${fmt(options.jobs / 10)} jobs per target, not recorded) ...`,
  );
  for (const [i, target] of targets.entries()) {
    const d = target.destinations;
    await target.run(Math.max(d, Math.round(options.jobs / 10 / d) * d), `w${i}`);
  }
  console.log(" done");

  const results: RunResult[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const row = new Array<RunResult>(targets.length);
    // Each round starts at a different target, so slow drift is not always charged to the same one.
    for (let k = 0; k < targets.length; k++) {
      const i = (round + k) % targets.length;
      row[i] = await targets[i]!.run(options.jobs, `r${round + 1}t${i}`);
    }
    results.push(row);
    const base = row[0]!;
    console.log(
      `round ${round + 1}: ` +
        targets
          .map((t, i) => {
            const r = row[i]!;
            const short =
              i === 0
                ? "no-op"
                : t.name
                    .replace(/^publish /, "")
                    .replace(/ products x /, "x")
                    .replace(/ destinations, /, " ")
                    .replace(/ worker process(es)?/, "p");
            return `${short} ${fmt(r.jobsPerSecond)}/s${i === 0 ? "" : ` (${pct(r.jobsPerSecond / base.jobsPerSecond)})`}`;
          })
          .join(" | "),
    );
  }

  const col = (i: number) => results.map((row) => row[i]!);
  console.log(
    `\nmedians over ${options.rounds} rounds ("vs no-op" = median of the per-round ratios):\n`,
  );
  console.log(
    table(
      ["target", "jobs/s", "total s", "enqueue ms", "vs no-op", "retried"],
      targets.map((t, i) => [
        t.name,
        fmt(median(col(i).map((r) => r.jobsPerSecond))),
        (median(col(i).map((r) => r.totalMs)) / 1000).toFixed(2),
        fmt(median(col(i).map((r) => r.enqueueMs))),
        i === 0
          ? "100%"
          : pct(median(results.map((row) => row[i]!.jobsPerSecond / row[0]!.jobsPerSecond))),
        String(col(i).reduce((a, r) => a + r.retried, 0)),
      ]),
    ),
  );

  console.log(
    "\nwhere the time goes, per job (medians over rounds; Redis calls count commands run inside scripts too; Redis and the machine are shared with other work):\n",
  );
  console.log(
    table(
      [
        "target",
        "Redis calls",
        "of them scripts",
        "PG commits",
        "HTTP to channel",
        "CPU ms workers",
        "PG backends",
        "Redis",
        "stand-in",
        "bench",
        "machine busy (cores)",
      ],
      targets.map((t, i) => {
        const p = col(i).map((r) => perJob(r.costs, r.jobs));
        const m = (f: (x: ReturnType<typeof perJob>) => number, d = 2) =>
          median(p.map(f)).toFixed(d);
        return [
          t.name,
          m((x) => x.redisCalls, 1),
          m((x) => x.redisScripts, 1),
          i === 0 ? "-" : m((x) => x.pgCommits, 1),
          i === 0 ? "-" : m((x) => x.http, 1),
          m((x) => x.cpuMs.workers, 3),
          i === 0 ? "-" : m((x) => x.cpuMs.postgres, 3),
          m((x) => x.cpuMs.redis, 3),
          i === 0 ? "-" : m((x) => x.cpuMs.standin, 3),
          m((x) => x.cpuMs.bench, 3),
          m((x) => x.cores.machine),
        ];
      }),
    ),
  );
  // Every command name, per job, so a reader sees where the Redis calls go (the last round).
  const lastRound = results[results.length - 1]!;
  for (const [i, target] of targets.entries()) {
    const run = lastRound[i]!;
    const all = [...run.costs.redisCalls].sort((a, b) => b[1] - a[1]);
    console.log(
      `\nRedis commands per job, last round, ${target.name}: ` +
        all
          .filter(([, calls]) => calls / run.jobs >= 0.005)
          .map(([name, calls]) => `${name} ${(calls / run.jobs).toFixed(2)}`)
          .join(", "),
    );
  }

  const verdicts: string[] = [];
  const mark = (ok: boolean) => (ok ? "PASS" : "FAIL");
  for (let i = 1; i < targets.length; i++) {
    const ratio = median(results.map((row) => row[i]!.jobsPerSecond / row[0]!.jobsPerSecond));
    const per = col(i).map((r) => perJob(r.costs, r.jobs));
    const cpu = median(per.map((x) => x.cpuMs.workers));
    const calls = median(per.map((x) => x.redisCalls));
    const commits = median(per.map((x) => x.pgCommits));
    const name = targets[i]!.name;
    verdicts.push(
      `[${mark(ratio >= MIN_RATIO)}] a: end-to-end >= ${MIN_RATIO * 100}% of the no-op worker's jobs/s, ${name}: ${pct(ratio)}`,
      `[${mark(cpu <= MAX_WORKER_CPU_MS)}] a: worker CPU per job <= ${MAX_WORKER_CPU_MS} ms, ${name}: ${cpu.toFixed(3)} ms`,
      `[${mark(calls <= MAX_REDIS_CALLS)}] a: Redis commands per job <= ${MAX_REDIS_CALLS}, ${name}: ${calls.toFixed(1)}`,
      `[${mark(commits <= MAX_PG_COMMITS)}] a: PostgreSQL commits per job <= ${MAX_PG_COMMITS}, ${name}: ${commits.toFixed(2)}`,
    );
  }
  for (const d of deployments) {
    for (const w of d.workers)
      if (w.problems.count > 0)
        console.log(
          `${w.name}: ${w.problems.count} warnings/errors logged, first: ${w.problems.first.join("\n  ")}`,
        );
    await d.close();
  }
  return verdicts;
}

// ---------------------------------------------------------------------------------------------
// Scenario b: many destinations, two worker processes: connections and jobs done twice.

async function scenarioB(cleanup: CleanupStack, env: Env): Promise<string[]> {
  const { options } = env;
  const total = options.bDestinations * options.bJobs;
  console.log(
    `\n=== b: ${fmt(options.bDestinations)} destinations x ${options.bJobs} jobs (${fmt(total)}), 2 worker processes ===`,
  );
  const deployment = await startDeployment(cleanup, "b", {
    baseDatabaseUrl: env.baseDatabaseUrl,
    redisUrl: env.redisUrl,
    standinUrl: env.standin.url,
    products: options.bJobs,
    workers: 2,
    workerEnv: env.workerEnv,
    workerNodeArgs: env.workerNodeArgs,
  });
  const destinations = await deployment.addDestinations(options.bDestinations, "b");
  await waitForIdleDatabase(deployment.databaseUrl);
  const pids = deployment.workers.map((w) => w.pid);
  const sampler = sampleRedisConnections(pids, 200);
  await sleep(600); // a few samples of the idle workers first
  const meter = await startMeter(env, deployment.workers, deployment);
  const started = Date.now();
  const ids = await deployment.publish(
    deployment.productIds,
    destinations.map((d) => d.id),
  );
  const enqueueMs = Date.now() - started;
  const done = await deployment.waitForSucceeded(ids, { timeoutMs: options.timeoutSeconds * 1000 });
  const totalMs = done.lastFinishedAt - started;
  const costs = await meter.finish(totalMs / 1000);
  const connections = await sampler.stop();
  const counts = await standinCounts(
    env.standin,
    destinations.map((d: Destination) => d.store),
  );
  costs.httpRequests = sumRequests(counts);

  const creates = [...counts.values()].reduce((a, c) => a + c.create, 0);
  const updates = [...counts.values()].reduce((a, c) => a + c.update, 0);
  const wrongStores = [...counts.values()].filter(
    (c) => c.create !== options.bJobs || c.update !== 0,
  ).length;
  const { rows: statusRows } = await deployment.pg.query<{
    status: string;
    attempts: number;
    n: string;
  }>(
    "SELECT status, attempts, count(*) AS n FROM sync_logs WHERE id = ANY($1::uuid[]) GROUP BY status, attempts ORDER BY status, attempts",
    [ids],
  );
  const maxConnections = Math.max(...connections.max.values());
  const per = perJob(costs, ids.length);

  console.log(
    `enqueued ${fmt(ids.length)} jobs in ${fmt(enqueueMs)} ms (${Math.ceil(options.bDestinations / REQUEST_MAX_DESTINATIONS)} gateway-sized requests)`,
  );
  console.log(
    `completion: ${(totalMs / 1000).toFixed(2)} s from the first enqueue to the last sync log succeeded (${fmt(ids.length / (totalMs / 1000))} jobs/s)`,
  );
  console.log(
    `Redis connections per worker process (ESTABLISHED to :6379, max over ${connections.samples} samples every 200 ms): ` +
      deployment.workers
        .map((w) => `${w.name} (pid ${w.pid}) ${connections.max.get(w.pid)}`)
        .join(", "),
  );
  console.log(
    `stand-in, over the ${fmt(counts.size)} stores: ${fmt(creates)} creates, ${fmt(updates)} updates, ${fmt(costs.httpRequests)} requests; ` +
      `stores with create != ${options.bJobs} or update != 0: ${wrongStores}`,
  );
  console.log(
    `sync logs by status and attempts: ${statusRows.map((r) => `${r.status}/attempts=${r.attempts}: ${fmt(Number(r.n))}`).join(", ")}; attempts > 1: ${done.retried}`,
  );
  console.log(
    `per job: ${per.redisCalls.toFixed(1)} Redis calls, ${per.pgCommits.toFixed(1)} PG commits, ${per.http.toFixed(1)} HTTP requests; ` +
      `CPU cores during the run: workers ${per.cores.workers.toFixed(2)}, PG backends ${per.cores.postgres.toFixed(2)}, Redis ${per.cores.redis.toFixed(2)}, ` +
      `stand-in ${per.cores.standin.toFixed(2)}, machine ${per.cores.machine.toFixed(2)} of ${availableParallelism()}`,
  );
  for (const w of deployment.workers)
    if (w.problems.count > 0)
      console.log(
        `${w.name}: ${w.problems.count} warnings/errors logged, first: ${w.problems.first.join("\n  ")}`,
      );
  await deployment.close();

  const doneTwice = updates + (creates - Math.min(creates, total)) + wrongStores;
  return [
    `[${maxConnections <= options.bMaxConnections ? "PASS" : "FAIL"}] b: Redis connections per worker process <= ${options.bMaxConnections}: max ${maxConnections}`,
    `[${doneTwice === 0 && creates === total && done.retried === 0 ? "PASS" : "FAIL"}] b: jobs done twice = 0: ${updates} updates, ${creates}/${total} creates, ${wrongStores} stores off, ${done.retried} sync logs with attempts > 1`,
    `[INFO] b: completion time ${(totalMs / 1000).toFixed(2)} s (${fmt(ids.length / (totalMs / 1000))} jobs/s)`,
  ];
}

// ---------------------------------------------------------------------------------------------
// Scenario c: fairness, one big destination ahead of many small ones.

async function scenarioC(cleanup: CleanupStack, env: Env): Promise<string[]> {
  const { options } = env;
  const smallTotal = options.cSmall * options.cSmallJobs;
  console.log(
    `\n=== c: fairness, 1 destination with ${fmt(options.cBig)} jobs enqueued first, then ${options.cSmall} destinations x ${options.cSmallJobs}, 2 worker processes ===`,
  );
  const deployment = await startDeployment(cleanup, "c", {
    baseDatabaseUrl: env.baseDatabaseUrl,
    redisUrl: env.redisUrl,
    standinUrl: env.standin.url,
    products: Math.max(options.cBig, options.cSmallJobs),
    workers: 2,
    workerEnv: env.workerEnv,
    workerNodeArgs: env.workerNodeArgs,
  });
  const [big] = await deployment.addDestinations(1, "big");
  const small = await deployment.addDestinations(options.cSmall, "small");
  await waitForIdleDatabase(deployment.databaseUrl);
  const sampler = sampleRedisConnections(
    deployment.workers.map((w) => w.pid),
    250,
  );

  const bigStarted = Date.now();
  await deployment.publish(deployment.productIds.slice(0, options.cBig), [big!.id]);
  const smallStarted = Date.now();
  const smallIds = await deployment.publish(
    deployment.productIds.slice(0, options.cSmallJobs),
    small.map((d) => d.id),
  );
  const smallEnqueueMs = Date.now() - smallStarted;
  const done = await deployment.waitForSucceeded(smallIds, {
    timeoutMs: options.timeoutSeconds * 1000,
  });
  const windowMs = done.lastFinishedAt - smallStarted;
  const connections = await sampler.stop();

  const {
    rows: [bigRow],
  } = await deployment.pg.query<{ before: string; during: string; total: string }>(
    `SELECT count(*) FILTER (WHERE extract(epoch FROM finished_at) * 1000 <= $2) AS before,
            count(*) FILTER (WHERE extract(epoch FROM finished_at) * 1000 <= $3) AS during, count(*) AS total
     FROM sync_logs WHERE destination_account_id = $1 AND status = 'succeeded'`,
    [big!.id, smallStarted, done.lastFinishedAt],
  );
  const { rows: perDestination } = await deployment.pg.query<{ last: number }>(
    `SELECT extract(epoch FROM max(finished_at)) * 1000 AS last FROM sync_logs WHERE id = ANY($1::uuid[]) GROUP BY destination_account_id`,
    [smallIds],
  );
  const finishes = perDestination
    .map((r) => (Number(r.last) - smallStarted) / 1000)
    .sort((a, b) => a - b);
  const bigBefore = Number(bigRow!.before);
  const bigDuring = Number(bigRow!.during) - bigBefore;

  console.log(
    `big destination: ${fmt(options.cBig)} jobs enqueued in ${fmt(smallStarted - bigStarted)} ms (${Math.ceil(options.cBig / REQUEST_MAX_PRODUCTS)} gateway-sized requests); ` +
      `${fmt(bigBefore)} of them had succeeded when the small ones were enqueued`,
  );
  console.log(
    `small destinations: ${smallTotal} jobs enqueued in ${fmt(smallEnqueueMs)} ms; all ${smallTotal} succeeded ${(windowMs / 1000).toFixed(2)} s after their enqueueing started ` +
      `(per destination, last job done at: first ${finishes[0]!.toFixed(2)} s, median ${median(finishes).toFixed(2)} s, last ${finishes[finishes.length - 1]!.toFixed(2)} s)`,
  );
  console.log(
    `meanwhile the big destination got ${fmt(bigDuring)} more jobs done (${fmt(bigDuring / (windowMs / 1000))} jobs/s); ` +
      `${fmt(Number(bigRow!.during))} of ${fmt(options.cBig)} done by then, ${fmt(options.cBig - Number(bigRow!.during))} still waiting`,
  );
  console.log(
    `Redis connections per worker process (max over ${connections.samples} samples): ${deployment.workers.map((w) => `${w.name} ${connections.max.get(w.pid)}`).join(", ")}`,
  );
  for (const w of deployment.workers)
    if (w.problems.count > 0)
      console.log(
        `${w.name}: ${w.problems.count} warnings/errors logged, first: ${w.problems.first.join("\n  ")}`,
      );
  // The big destination's remaining jobs are left to the workers' shutdown: they finish the job in
  // flight and stop.
  await deployment.close();
  return [
    `[${windowMs <= options.cLimitSeconds * 1000 ? "PASS" : "FAIL"}] c: the ${smallTotal} small jobs done within ${options.cLimitSeconds} s of their enqueueing behind ${fmt(options.cBig)} big ones: ` +
      `${(windowMs / 1000).toFixed(2)} s (the big one did ${fmt(bigDuring)} meanwhile)`,
  ];
}

// ---------------------------------------------------------------------------------------------

async function main(cleanup: CleanupStack): Promise<boolean> {
  const options = readPublishBenchOptions();
  const baseDatabaseUrl =
    process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const workerEnv: Record<string, string> = { LOG_LEVEL: options.logLevel };
  // For profiling the workers, e.g. BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
  const workerNodeArgs = process.env.BENCH_WORKER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const config = loadPublishWorkerConfig({
    ...process.env,
    ...workerEnv,
    CREDENTIALS_KEYS: "bench",
  });
  console.log(
    `publish bench: scenarios ${options.scenarios.join(", ")}; node ${process.version}, ${availableParallelism()} CPUs`,
  );
  console.log(
    `workers: apps/publish-worker/src/main.ts as separate processes (node --import tsx), PUBLISH_LANES=${config.PUBLISH_LANES}, ` +
      `DESTINATION_CONCURRENCY=${config.DESTINATION_CONCURRENCY}, SLICE_MS=${config.SLICE_MS}, SLICE_JOBS=${config.SLICE_JOBS}, ` +
      `DESTINATION_RATE_PER_SECOND=${config.DESTINATION_RATE_PER_SECOND}, LOG_LEVEL=${config.LOG_LEVEL} (stdout read and dropped)`,
  );
  console.log(
    `enqueueing: this process calls recordPublishRequest + PublishQueues.enqueue directly, what POST /api/products/publish does, in ` +
      `requests of at most ${REQUEST_MAX_PRODUCTS} products x ${REQUEST_MAX_DESTINATIONS} destinations (the route's limits), one after another; ` +
      "the gateway and HTTP are not involved. Channel: the stand-in (zero latency) in its own process. This process only enqueues, polls PostgreSQL and samples.",
  );

  const standin = await startStandin(cleanup);
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  cleanup.add("disconnect bench Redis", async () => redis.disconnect());
  const env: Env = {
    baseDatabaseUrl,
    redisUrl,
    standin,
    redis,
    options,
    workerEnv,
    workerNodeArgs,
  };

  const verdicts: string[] = [];
  if (options.scenarios.includes("a")) verdicts.push(...(await scenarioA(cleanup, env)));
  if (options.scenarios.includes("b")) verdicts.push(...(await scenarioB(cleanup, env)));
  if (options.scenarios.includes("c")) verdicts.push(...(await scenarioC(cleanup, env)));
  console.log("");
  for (const line of verdicts) console.log(line);
  return true;
}

await runBench(main);
