import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import {
  createTestDatabase,
  deleteRedisPrefix,
  dropTestDatabase,
  newRedisPrefix,
} from "@catalog/testing";
import { readBenchOptions } from "./bench-options.js";
import { holdSessions } from "./held-sessions.js";
import { formatRound, formatTable, summarise, verdicts } from "./bench-report.js";
import { startChildServer } from "./child-server.js";
import { runBench, type CleanupStack } from "./cleanup-stack.js";
import { treeCpuSeconds } from "./proc-stats.js";
import { runLoad, type Sample, type Target } from "./load-run.js";
import { countMatches, seedCatalog } from "./seed-catalog.js";
import { deepPagePaths, pathCycle, searchMissPaths } from "./search-paths.js";
import { waitForIdleDatabase } from "./wait-for-idle-database.js";

// A common word, a rare word and a SKU fragment: very different numbers of matches to count and
// sort.
const SEARCH_TERMS = ["cotton", "ottoman", "SKU-0004"];
const LIST_PATH = "/api/products?page=1&pageSize=25";
const DEEP_PAGE = 400;

async function logIn(gatewayUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${gatewayUrl}/api/auth/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const sid = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((c) => c.startsWith("sid="));
  if (!response.ok || !sid)
    throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return sid;
}

/**
 * One request per path before measuring: a 401 or 500 stops the bench instead of being benchmarked.
 */
async function checkTargets(targets: Target[]): Promise<void> {
  for (const target of targets) {
    // A run of misses is checked on a few of its paths, not all (they would be cached then).
    for (const path of target.nextPath ? target.paths.slice(-3) : target.paths) {
      const response = await fetch(target.url + path, { headers: target.headers ?? {} });
      if (response.status !== 200)
        throw new Error(
          `${target.name}: GET ${path} answered ${response.status} ${await response.text()}`,
        );
    }
  }
}

async function main(cleanup: CleanupStack): Promise<boolean> {
  const options = readBenchOptions();
  const baseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const settings = { connections: options.connections, duration: options.duration };
  console.log(
    `gateway bench: ${options.rounds} rounds x ${options.duration} s per route, ${options.connections} connections, ` +
      `pipelining 1, warm-up ${options.warmup} s; node ${process.version}, ${availableParallelism()} CPUs; ` +
      `gateway ${options.built ? "built" : "from sources under tsx"}`,
  );

  const prefix = newRedisPrefix();
  cleanup.add(`delete Redis keys ${prefix}:*`, () =>
    deleteRedisPrefix({ REDIS_URL: redisUrl, REDIS_CLUSTER: false }, prefix),
  );
  const databaseUrl = await cleanup.adopt(
    "drop bench database",
    createTestDatabase(baseUrl, "bench"),
    dropTestDatabase,
  );
  console.log(`database ${new URL(databaseUrl).pathname.slice(1)}, Redis prefix ${prefix}`);

  const seeded = await seedCatalog(databaseUrl, options.products);
  console.log(
    `seeded ${seeded.products.toLocaleString("en-US")} products in ${seeded.seconds.toFixed(1)} s ` +
      `(${Math.round(seeded.products / seeded.seconds).toLocaleString("en-US")} rows/s; INSERT ... SELECT FROM unnest, 5,000 rows a batch, ` +
      `indexes maintained), then VACUUM ANALYZE in ${seeded.vacuumSeconds.toFixed(1)} s`,
  );
  const matches = await countMatches(databaseUrl, seeded.orgId, SEARCH_TERMS);
  console.log(
    `search terms (rows matched): ${SEARCH_TERMS.map((t) => `"${t}" ${matches.get(t)}`).join(", ")}`,
  );

  const gateway = await startChildServer(
    cleanup,
    "gateway",
    // BENCH_GATEWAY_TREE=/work/base runs another checkout's gateway on this bench's database.
    `${process.env.BENCH_GATEWAY_TREE ?? "."}/apps/gateway/${options.built ? "dist/server.js" : "src/server.ts"}`,
    {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: "warn",
      // The limiter still does its Redis round trip per request, but never answers 429.
      RATE_LIMIT_MAX: "100000000",
      // BENCH_GATEWAY_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR" profiles the gateway.
      ...(process.env.BENCH_GATEWAY_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.BENCH_GATEWAY_NODE_OPTIONS }
        : {}),
    },
    "/readyz",
  );
  const headers = { cookie: await logIn(gateway.url, seeded.email, seeded.password) };
  if (options.sessions > 0) {
    const seconds = await holdSessions(gateway.url, databaseUrl, seeded.email, options.sessions);
    console.log(
      `the gateway holds ${options.sessions.toLocaleString("en-US")} other sessions (opened in the database, each checked once, in ${seconds.toFixed(1)} s)`,
    );
  }

  // The second ceiling: the bare server sending list page 1's body exactly as the gateway sends it.
  const page = await fetch(gateway.url + LIST_PATH, { headers });
  const pageBody = Buffer.from(await page.arrayBuffer());
  if (page.status !== 200) throw new Error(`list page 1 answered ${page.status}`);
  const scratch = await mkdtemp(join(tmpdir(), "gateway-bench-"));
  cleanup.add("remove the captured page body", () => rm(scratch, { recursive: true, force: true }));
  const bodyFile = join(scratch, "page-1.json");
  await writeFile(bodyFile, pageBody);
  const bare = await startChildServer(
    cleanup,
    "bare",
    "bench/bare-server.ts",
    { BARE_BODY_FILE: bodyFile, BARE_BODY_TYPE: page.headers.get("content-type") ?? "" },
    "/",
  );
  console.log(
    `list page 1 body: ${pageBody.length.toLocaleString("en-US")} bytes (${page.headers.get("content-type")}), served by the bare server at /page`,
  );

  const totalPages = Math.ceil(options.products / 25);
  const deepAround = Math.min(DEEP_PAGE, Math.max(1, totalPages - 200));
  const deepPaths = deepPagePaths(deepAround);
  const missPaths = searchMissPaths(options.products);
  console.log(
    `cache-miss runs: ${missPaths.length.toLocaleString("en-US")} distinct searches (term x page), ` +
      `${deepPaths.length.toLocaleString("en-US")} distinct deep pages around page ${deepAround} of ${totalPages.toLocaleString("en-US")}, ` +
      "each taken once in turn across rounds",
  );

  // Misses are a latency target: a closed loop of 50 connections would measure only the queue in
  // front of PostgreSQL (p99 about 50 / throughput). A few users searching at once, by default.
  const missConnections = Number(process.env.BENCH_MISS_CONNECTIONS ?? 4);
  console.log(`cache-miss runs use ${missConnections} connections (BENCH_MISS_CONNECTIONS)`);
  const searchPath = (term: string) => `/api/products?q=${encodeURIComponent(term)}`;
  const allTargets: Target[] = [
    { name: "bare hello-world", url: bare.url, paths: ["/"], baseline: true },
    { name: "bare page body", url: bare.url, paths: ["/page"], bodyCeiling: true },
    // Cookie, rate limit and session lookup only: what any signed-in route costs before its own
    // work.
    { name: "session check", url: gateway.url, paths: ["/api/auth/session"], headers },
    { name: "list page 1", url: gateway.url, paths: [LIST_PATH], headers },
    {
      name: `deep pages (~${deepAround})`,
      url: gateway.url,
      paths: deepPaths,
      nextPath: pathCycle(deepPaths),
      connections: missConnections,
      headers,
    },
    {
      name: "search misses",
      url: gateway.url,
      paths: missPaths,
      nextPath: pathCycle(missPaths),
      connections: missConnections,
      headers,
    },
    ...SEARCH_TERMS.map((term) => ({
      name: `search "${term}"`,
      url: gateway.url,
      paths: [searchPath(term)],
      headers,
    })),
    { name: "search (mixed)", url: gateway.url, paths: SEARCH_TERMS.map(searchPath), headers },
  ];
  // BENCH_ROUTES (a regular expression on route names) runs only those, with the ceilings.
  const only = process.env.BENCH_ROUTES ? new RegExp(process.env.BENCH_ROUTES) : null;
  const targets = allTargets.filter(
    (t) => t.baseline || t.bodyCeiling || !only || only.test(t.name),
  );
  await checkTargets(targets);

  // CPU per request of the server answering, from /proc (the tsx launcher and the server under
  // it): a figure the machine's other load does not move much, unlike req/s.
  const measure = async (target: Target, duration?: number) => {
    const pid = target.url === gateway.url ? gateway.pid : bare.pid;
    const cpuBefore = await treeCpuSeconds(pid);
    const sample = await runLoad(target, settings, duration);
    const cpu = (await treeCpuSeconds(pid)) - cpuBefore;
    sample.cpuUsPerRequest = sample.requests > 0 ? (cpu * 1e6) / sample.requests : Number.NaN;
    await waitForIdleDatabase(databaseUrl);
    return sample;
  };
  for (const target of targets) await measure(target, options.warmup);

  const samples: Sample[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const results: Sample[] = new Array<Sample>(targets.length);
    // Each round starts at a different target, so slow drift (other load, autovacuum) is not
    // always charged to the same route.
    for (let k = 0; k < targets.length; k++) {
      const i = (round + k) % targets.length;
      results[i] = await measure(targets[i] as Target);
    }
    samples.push(results);
    console.log(formatRound(round + 1, targets, results));
  }

  const rows = summarise(targets, samples);
  console.log(
    `\nmedians over ${options.rounds} rounds ("vs bare" = median of per-round req/s ratios):\n`,
  );
  console.log(formatTable(rows));
  console.log("");
  for (const target of targets.filter((t) => t.nextPath)) {
    const asked = samples.reduce(
      (n, round) => n + (round[targets.indexOf(target)]?.requests ?? 0),
      0,
    );
    if (asked > target.paths.length)
      console.log(
        `note: ${target.name} sent ${asked.toLocaleString("en-US")} requests over ${target.paths.length.toLocaleString("en-US")} distinct paths: some repeated (read-cache hits)`,
      );
  }
  const verdict = verdicts(rows, {
    isSearch: (r) => r.target.name.startsWith("search ") && !r.target.nextPath,
    isList: (r) => r.target.name === "list page 1",
    isBodyBound: (r) => r.target.name === "list page 1" || r.target.name === "session check",
    isMissSearch: (r) => r.target.name === "search misses",
    isDeepPage: (r) => r.target.name.startsWith("deep pages"),
    products: options.products,
  });
  for (const line of verdict.lines) console.log(line);
  return verdict.valid;
}

await runBench(main);
