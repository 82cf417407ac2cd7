// Automatic sync under a channel's declared rate (issue 29, "Measured"). See bench/README.md.
//   pnpm exec tsx bench/sync-convergence-bench.ts [--scenario convergence|fairness|all]
//     [--products 2000] [--rate 50] [--destinations 20] [--listings 50] [--workers 2]
// The figures: --products 10000 --rate 20 --destinations 100 --listings 100.
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { importInOneTransaction, type ImportItem, type SyncCollector } from "@catalog/db";
import { redisKeyPrefix } from "@catalog/config";
import { PublishQueues } from "@catalog/queue";
import { median } from "./bench-report.js";
import type { ChildServer } from "./child-server.js";
import { runBench, type CleanupStack } from "./cleanup-stack.js";
import { startDeployment, type Destination, type PublishDeployment } from "./publish-deployment.js";
import { startStandin } from "./standin-control.js";

interface Options {
  scenarios: ("convergence" | "fairness")[];
  products: number;
  rate: number;
  destinations: number;
  listings: number;
  workers: number;
  timeoutSeconds: number;
}

function readOptions(argv = process.argv.slice(2)): Options {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== "--"),
    options: {
      scenario: { type: "string" },
      products: { type: "string" },
      rate: { type: "string" },
      destinations: { type: "string" },
      listings: { type: "string" },
      workers: { type: "string" },
      timeout: { type: "string" },
    },
  });
  const int = (name: string, raw: string | undefined, fallback: number) => {
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`--${name} must be a positive integer, got "${raw}"`);
    return value;
  };
  const scenario = values.scenario ?? "all";
  if (!["convergence", "fairness", "all"].includes(scenario))
    throw new Error(`--scenario must be convergence, fairness or all, got "${scenario}"`);
  return {
    scenarios:
      scenario === "all" ? ["convergence", "fairness"] : [scenario as "convergence" | "fairness"],
    products: int("products", values.products, 2_000),
    rate: int("rate", values.rate, 50),
    destinations: int("destinations", values.destinations, 20),
    listings: int("listings", values.listings, 50),
    workers: int("workers", values.workers, 2),
    timeoutSeconds: int("timeout", values.timeout, 1_800),
  };
}

const fmt = (n: number, digits = 1) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

const OFFER_ROUTE = "PATCH /v1/listings/{id}";

interface StoreCounts {
  create: number;
  update: number;
  throttled: number;
  requests: number;
  routes: Record<string, number>;
}

async function storeState(standin: ChildServer, store: string) {
  const res = await fetch(`${standin.url}/_control/stores/${encodeURIComponent(store)}`);
  if (!res.ok) throw new Error(`stand-in control: ${res.status}`);
  return (await res.json()) as {
    counts: StoreCounts;
    listings: { sku: string | null; price: { amount: string } }[];
  };
}

/**
 * One document import, as the gateway's persisted document import runs it: the rows in batches
 * of 500 in one transaction, the automatic syncs planned in it and enqueued after the commit.
 */
async function importPrices(
  d: PublishDeployment,
  queues: PublishQueues,
  productIds: string[],
  price: (old: string) => string,
  name: string,
): Promise<number> {
  const { rows } = await d.pg.query<{
    title: string;
    sku: string;
    price_amount: string;
    price_currency: string | null;
  }>(
    "SELECT title, sku, price_amount::text, price_currency FROM products WHERE id = ANY($1::uuid[]) ORDER BY sku",
    [productIds],
  );
  const items: ImportItem[] = rows.map((r) => ({
    fields: {
      title: r.title,
      sku: r.sku,
      price: { amount: price(r.price_amount), currency: r.price_currency ?? "EUR" },
    },
    provenance: {},
  }));
  const sync: SyncCollector = { by: `import ${name}`, records: [] };
  await importInOneTransaction(
    d.db,
    d.orgId,
    {
      actor: { type: "system", id: null },
      source: "document",
      persist: true,
      timeoutMs: 600_000,
      sync,
    },
    async (importBatch) => {
      for (let i = 0; i < items.length; i += 500) await importBatch(items.slice(i, i + 500));
    },
  );
  await queues.enqueue(
    sync.records.map((r) => ({
      syncLogId: r.syncLogId,
      orgId: r.orgId,
      productId: r.productId,
      destinationAccountId: r.destinationAccountId,
    })),
  );
  return sync.records.length;
}

/** Waits until no update planned since `since` is pending; returns per destination their end. */
async function waitForUpdates(
  d: PublishDeployment,
  since: Date,
  expected: number,
  timeoutMs: number,
): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await d.pg.query<{ pending: number; done: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE status IN ('queued', 'running'))::int AS pending,
              count(*) FILTER (WHERE status = 'succeeded')::int AS done,
              count(*) FILTER (WHERE status IN ('failed', 'dead'))::int AS failed
       FROM sync_logs WHERE kind = 'update' AND created_at >= $1`,
      [since],
    );
    const { pending, done, failed } = rows[0]!;
    if (failed > 0) throw new Error(`${failed} updates failed`);
    if (pending === 0 && done >= expected) break;
    if (Date.now() > deadline) throw new Error(`${pending} updates still pending`);
    await sleep(200);
  }
  const { rows } = await d.pg.query<{ destination_account_id: string; last: Date }>(
    `SELECT destination_account_id, max(finished_at) AS last FROM sync_logs
     WHERE kind = 'update' AND created_at >= $1 GROUP BY destination_account_id`,
    [since],
  );
  return new Map(rows.map((r) => [r.destination_account_id, r.last.getTime()]));
}

async function maxUpdatesPerListing(d: PublishDeployment, since: Date): Promise<number> {
  const { rows } = await d.pg.query<{ n: number }>(
    `SELECT coalesce(max(n), 0)::int AS n FROM (
       SELECT count(*) AS n FROM sync_logs WHERE kind = 'update' AND created_at >= $1
       GROUP BY product_id, destination_account_id) x`,
    [since],
  );
  return rows[0]!.n;
}

async function publishAll(d: PublishDeployment, products: string[], destinations: Destination[]) {
  const ids = await d.publish(
    products,
    destinations.map((x) => x.id),
  );
  await d.waitForSucceeded(ids, { timeoutMs: 1_800_000 });
}

const bump = (old: string) => (Number(old) + 1).toFixed(2);

async function convergence(
  cleanup: CleanupStack,
  standin: ChildServer,
  options: Options,
): Promise<string[]> {
  const n = options.products;
  console.log(`\nconvergence: ${n} products live on one destination at ${options.rate} rps`);
  const d = await startDeployment(cleanup, "conv", deploymentSettings(standin, options, n));
  const queues = new PublishQueues(d.redis, redisKeyPrefix(d.prefix));
  const [destination] = await d.addDestinations(1, "conv");
  const started = Date.now();
  await publishAll(d, d.productIds, [destination!]);
  console.log(`  published ${n} listings in ${fmt((Date.now() - started) / 1000)} s`);

  const before = (await storeState(standin, destination!.store)).counts;
  const since = new Date();
  const t0 = Date.now();
  const planned = await importPrices(d, queues, d.productIds, bump, "prices +1");
  const imported = Date.now();
  const ends = await waitForUpdates(d, since, n, options.timeoutSeconds * 1000);
  const converged = Math.max(...ends.values()) - t0;
  const after = await storeState(standin, destination!.store);
  const { rows: prices } = await d.pg.query<{ sku: string; price: string }>(
    "SELECT sku, price_amount::text AS price FROM products WHERE org_id = $1",
    [d.orgId],
  );
  const want = new Map(prices.map((r) => [r.sku, Number(r.price)]));
  const stale = after.listings.filter((l) => Number(l.price.amount) !== want.get(l.sku ?? ""));
  // Writes to existing listings, offer-only (PATCH) and full (PUT) alike; 429s are not writes.
  const calls = after.counts.update - before.update;
  const offers = (after.counts.routes[OFFER_ROUTE] ?? 0) - (before.routes[OFFER_ROUTE] ?? 0);
  const least = (n / options.rate) * 1000;
  const perListing = await maxUpdatesPerListing(d, since);

  const quietSince = new Date();
  const quietBefore = after.counts.requests;
  const quietPlanned = await importPrices(
    d,
    queues,
    d.productIds,
    (p) => Number(p).toFixed(2),
    "same prices",
  );
  await sleep(2_000);
  const quiet = await storeState(standin, destination!.store);
  const { rows: quietLogs } = await d.pg.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM sync_logs WHERE created_at >= $1",
    [quietSince],
  );
  await queues.close();
  await d.close();

  const ratio = converged / least;
  const lines = [
    `  import committed and ${planned} updates planned in ${fmt((imported - t0) / 1000, 2)} s`,
    `  converged in ${fmt(converged / 1000, 2)} s; least the rate allows ${fmt(least / 1000, 2)} s (${n} calls / ${options.rate} rps); ratio ${fmt(ratio * 100)}% (target <= 110%)`,
    `  listing writes for the change: ${calls}; offer-route (PATCH) requests, 429s included: ${offers}; 429s: ${after.counts.throttled - before.throttled}; stale listings: ${stale.length}`,
    `  most updates of one listing: ${perListing} (must be 1)`,
    `  import changing nothing: ${quietPlanned} planned, ${quietLogs[0]!.n} sync logs, ${quiet.counts.requests - quietBefore} channel calls (must be 0)`,
  ];
  for (const line of lines) console.log(line);
  return [
    `convergence ${n} @ ${options.rate} rps: ${fmt(converged / 1000, 2)} s vs ${fmt(least / 1000, 2)} s = ${fmt(ratio * 100)}%, ` +
      `max ${perListing} update per listing, no-change import ${quiet.counts.requests - quietBefore} calls`,
  ];
}

async function fairness(
  cleanup: CleanupStack,
  standin: ChildServer,
  options: Options,
): Promise<string[]> {
  const { destinations: count, listings } = options;
  console.log(
    `\nfairness: ${count} destinations x ${listings} listings, each destination at ${options.rate} rps`,
  );
  const d = await startDeployment(cleanup, "fair", deploymentSettings(standin, options, listings));
  const queues = new PublishQueues(d.redis, redisKeyPrefix(d.prefix));
  const destinations = await d.addDestinations(count, "fair");
  const started = Date.now();
  await publishAll(d, d.productIds, destinations);
  console.log(
    `  published ${count * listings} listings in ${fmt((Date.now() - started) / 1000)} s`,
  );
  const since = new Date();
  const t0 = Date.now();
  await importPrices(d, queues, d.productIds, bump, "prices +1");
  const ends = await waitForUpdates(d, since, count * listings, options.timeoutSeconds * 1000);
  const perListing = await maxUpdatesPerListing(d, since);
  await queues.close();
  await d.close();
  const finishes = [...ends.values()].map((t) => (t - t0) / 1000).sort((a, b) => a - b);
  const least = listings / options.rate;
  const lines = [
    `  per-destination finish (s): min ${fmt(finishes[0]!, 2)}, median ${fmt(median(finishes), 2)}, max ${fmt(finishes.at(-1)!, 2)}; spread ${fmt(finishes.at(-1)! - finishes[0]!, 2)} s`,
    `  least time per destination at its rate: ${fmt(least, 2)} s; everything in ${fmt(finishes.at(-1)!, 2)} s for ${count * listings} updates (${fmt((count * listings) / finishes.at(-1)!, 0)} updates/s)`,
    `  most updates of one listing: ${perListing} (must be 1)`,
  ];
  for (const line of lines) console.log(line);
  return [
    `fairness ${count} x ${listings}: finish min ${fmt(finishes[0]!, 2)} s / median ${fmt(median(finishes), 2)} s / max ${fmt(finishes.at(-1)!, 2)} s (least ${fmt(least, 2)} s each)`,
  ];
}

function deploymentSettings(standin: ChildServer, options: Options, products: number) {
  return {
    baseDatabaseUrl: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog",
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    standinUrl: standin.url,
    products,
    workers: options.workers,
    // The workers hold each destination to the channel's declared rate, as a channel's
    // rateLimit makes them for a real channel.
    workerEnv: {
      LOG_LEVEL: "info",
      ...(process.env.BENCH_NO_GATE ? {} : { DESTINATION_RATE_PER_SECOND: String(options.rate) }),
    },
  };
}

async function main(cleanup: CleanupStack): Promise<boolean> {
  const options = readOptions();
  console.log(
    `sync convergence bench: ${options.scenarios.join(", ")}; node ${process.version}, ${availableParallelism()} CPUs, ${options.workers} publish worker processes`,
  );
  const standin = await startStandin(cleanup, { STANDIN_RATE: String(options.rate) });
  const verdicts: string[] = [];
  if (options.scenarios.includes("convergence"))
    verdicts.push(...(await convergence(cleanup, standin, options)));
  if (options.scenarios.includes("fairness"))
    verdicts.push(...(await fairness(cleanup, standin, options)));
  console.log("");
  for (const line of verdicts) console.log(line);
  return true;
}

await runBench(main);
