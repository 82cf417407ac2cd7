// Retention bench (issue 32, item 5): 10,000,000 sync logs, the sync-log list by product and by
// store (p50/p99 through the route's own query function, `listSyncLogs`), before (the indexes of
// the base tree) and after (this branch's), then one retention pass: rows removed, time, rows/s,
// the list's p99 while it runs against before it, table size and dead tuples after.
//
//   pnpm exec tsx bench/retention-bench.ts [--rows 10000000] [--products 10000] [--stores 100]
//     [--samples 400] [--before-samples 10] [--database catalog_bench_...]
// --database reuses a database an earlier run seeded (same --rows, --products, --stores) and was
// stopped in before dropping it (kill -9); it is dropped at the end like a fresh one.
import { parseArgs } from "node:util";
import pg from "pg";
import { withDatabaseName } from "@catalog/db/migrations";
import { createTestDatabase, dropTestDatabase } from "@catalog/testing";
import { createDb, listSyncLogs, type Db } from "@catalog/db";
import { retentionPolicyOf, runRetentionPass } from "@catalog/db/retention";
import { runBench, type CleanupStack } from "./cleanup-stack.js";
import { seededRandom } from "./seeded-random.js";

const TARGET_P99_MS = 50;
const ORG = "00000000-0000-4000-8000-000000000001";

interface Options {
  rows: number;
  products: number;
  stores: number;
  samples: number;
  /** Requests per list with the base tree's indexes (each by-store count reads the whole org). */
  beforeSamples: number;
  /** A bench database seeded by an earlier run that was stopped, reused (and dropped at the end). */
  database?: string;
}

function readOptions(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== "--"),
    options: {
      rows: { type: "string" },
      products: { type: "string" },
      stores: { type: "string" },
      samples: { type: "string" },
      "before-samples": { type: "string" },
      database: { type: "string" },
    },
  });
  const int = (raw: string | undefined, fallback: number, name: string) => {
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  return {
    rows: int(values.rows, 10_000_000, "rows"),
    products: int(values.products, 10_000, "products"),
    stores: int(values.stores, 100, "stores"),
    samples: int(values.samples, 400, "samples"),
    beforeSamples: int(values["before-samples"], 10, "before-samples"),
    ...(values.database ? { database: values.database } : {}),
  };
}

const uuidOf = (kind: string, n: string) => `md5('${kind}' || ${n})::uuid`;

/**
 * One org, `stores` stores, `products` products each listed on every store, and `rows` sync logs
 * spread evenly over 120 days (oldest first, as the table fills): each (product, store) pair gets
 * one every rows / (products x stores) slots. Statuses: 2% failed, 0.5% dead, the newest 0.05%
 * queued or running, the rest succeeded; a tenth belong to one of 200 publish runs.
 */
async function seed(client: pg.Client, o: Options): Promise<void> {
  const pairs = o.products * o.stores;
  await client.query(`INSERT INTO orgs (id, name) VALUES ($1, 'retention bench')`, [ORG]);
  await client.query(
    `INSERT INTO destination_accounts (id, org_id, channel, name)
     SELECT ${uuidOf("d", "n")}, $1, 'standin', 'store ' || n FROM generate_series(0, $2 - 1) n`,
    [ORG, o.stores],
  );
  await client.query(
    `INSERT INTO products (id, org_id, title, sku)
     SELECT ${uuidOf("p", "n")}, $1, 'product ' || n, 'SKU-' || n FROM generate_series(0, $2 - 1) n`,
    [ORG, o.products],
  );
  await client.query(
    `INSERT INTO listings (id, org_id, product_id, destination_account_id, status, remote_id)
     SELECT gen_random_uuid(), $1, ${uuidOf("p", "(n % $2::int)")}, ${uuidOf("d", "(n / $2::int)")}, 'published', 'r' || n
     FROM generate_series(0, $3 - 1) n`,
    [ORG, o.products, pairs],
  );
  await client.query(
    `INSERT INTO publish_runs (id, org_id, actor_type, products, destination_ids, created_at)
     SELECT ${uuidOf("r", "n")}, $1, 'system', '[]'::jsonb, '{}', now() - interval '120 days' + n * interval '14 hours'
     FROM generate_series(0, 199) n`,
    [ORG],
  );
  const chunk = 1_000_000;
  for (let from = 0; from < o.rows; from += chunk) {
    const to = Math.min(o.rows, from + chunk) - 1;
    const started = performance.now();
    await client.query(
      `INSERT INTO sync_logs (id, org_id, product_id, destination_account_id, job_id, status, attempts,
         error, created_at, finished_at, run_id, kind, lease_until)
       SELECT v.id, $1, ${uuidOf("p", "(i % $3::int)")}, ${uuidOf("d", "((i / $3::int) % $4::int)")}, v.id::text,
         v.status::"SyncStatus", 1, CASE WHEN v.status IN ('failed', 'dead') THEN 'channel said no' END,
         v.at, CASE WHEN v.status IN ('succeeded', 'failed', 'dead') THEN v.at END,
         CASE WHEN i % 10 = 0 THEN ${uuidOf("r", "((i::bigint * 200) / $2::int)")} END,
         CASE WHEN i % 10 = 0 THEN 'publish' ELSE 'update' END::"SyncKind",
         CASE WHEN v.status IN ('queued', 'running') THEN now() + interval '1 minute' END
       FROM generate_series($5::int, $6::int) i,
       LATERAL (SELECT gen_random_uuid() AS id,
         (now() - interval '120 days' + (i::float8 / $2::int) * interval '120 days')::timestamp(3) AS at,
         CASE WHEN i >= $2::int * 0.9995 THEN (CASE WHEN i % 2 = 0 THEN 'queued' ELSE 'running' END)
              WHEN i % 200 = 7 THEN 'dead' WHEN i % 50 = 3 THEN 'failed' ELSE 'succeeded' END AS status) v`,
      [ORG, o.rows, o.products, o.stores, from, to],
    );
    console.log(
      `  sync logs ${(to + 1).toLocaleString("en-US")} (${Math.round((to + 1 - from) / ((performance.now() - started) / 1000)).toLocaleString("en-US")} rows/s)`,
    );
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Latencies {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

const summary = (ms: number[]): Latencies => {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1]!,
    n: ms.length,
  };
};

const fmt = (l: Latencies) =>
  `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms (${l.n} requests)`;

type Filter = { productId?: string; destinationAccountId?: string };

/** The base tree's `listSyncLogs` (886a93f): the page and an exact count of every matching row. */
async function listSyncLogsBase(
  db: Db,
  orgId: string,
  query: Filter & { page: number; pageSize: number },
) {
  const where = {
    orgId,
    ...(query.productId ? { productId: query.productId } : {}),
    ...(query.destinationAccountId ? { destinationAccountId: query.destinationAccountId } : {}),
  };
  return Promise.all([
    db.syncLog.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db.syncLog.count({ where }),
  ]);
}

/** Page 1 (25 rows and the total) of the list for each filter in turn, sequentially. */
async function measure(
  db: Db,
  filters: Filter[],
  list: typeof listSyncLogsBase | typeof listSyncLogs = listSyncLogs,
): Promise<Latencies> {
  const ms: number[] = [];
  for (const filter of filters) {
    const started = performance.now();
    await list(db, ORG, { ...filter, page: 1, pageSize: 25 });
    ms.push(performance.now() - started);
  }
  return summary(ms);
}

async function loadAverage(): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  return (await readFile("/proc/loadavg", "utf8")).split(" ").slice(0, 3).join(" ");
}

async function tableState(client: pg.Client) {
  const { rows } = await client.query<{ rows: string; dead: string; size: string }>(
    `SELECT n_live_tup AS rows, n_dead_tup AS dead, pg_size_pretty(pg_total_relation_size('sync_logs')) AS size
     FROM pg_stat_user_tables WHERE relname = 'sync_logs'`,
  );
  return rows[0]!;
}

const NEW_INDEXES = [
  `CREATE INDEX IF NOT EXISTS "sync_logs_org_id_product_id_created_at_id_idx" ON "sync_logs"("org_id", "product_id", "created_at" DESC, "id" DESC)`,
  `CREATE INDEX IF NOT EXISTS "sync_logs_org_id_destination_account_id_created_at_id_idx" ON "sync_logs"("org_id", "destination_account_id", "created_at" DESC, "id" DESC)`,
];

async function main(cleanup: CleanupStack): Promise<boolean> {
  const o = readOptions();
  const baseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog";
  console.log(
    `retention bench: ${o.rows.toLocaleString("en-US")} sync logs, ${o.products.toLocaleString("en-US")} products x ${o.stores} stores, ` +
      `${o.samples} list requests per measure; load average ${await loadAverage()}`,
  );
  const databaseUrl = o.database
    ? await cleanup.adopt(
        "drop bench database",
        Promise.resolve(withDatabaseName(baseUrl, o.database)),
        dropTestDatabase,
      )
    : await cleanup.adopt(
        "drop bench database",
        createTestDatabase(baseUrl, "bench"),
        dropTestDatabase,
      );
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  cleanup.add("close the bench connection", () => client.end());
  const db = createDb(databaseUrl, { poolSize: 4 });
  cleanup.add("close the Prisma client", () => db.$disconnect());

  if (o.database) {
    console.log(`reusing the seeded database ${o.database}: ${(await tableState(client)).size}`);
  } else {
    // The base tree's indexes while seeding and measuring "before".
    await client.query(`DROP INDEX "sync_logs_org_id_product_id_created_at_id_idx"`);
    await client.query(`DROP INDEX "sync_logs_org_id_destination_account_id_created_at_id_idx"`);
    await client.query(
      `CREATE INDEX "sync_logs_org_id_product_id_idx" ON sync_logs (org_id, product_id)`,
    );
    // Rows first, then the indexes (each built once, as CREATE INDEX does): several times faster.
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes
       WHERE tablename = 'sync_logs' AND indexname <> 'sync_logs_pkey'`,
    );
    for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
    const seeding = performance.now();
    await seed(client, o);
    for (const index of indexes) await client.query(index.def);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const vacuuming = performance.now();
    await client.query(`VACUUM ANALYZE`);
    console.log(
      `seeded in ${seedSeconds.toFixed(1)} s (${Math.round(o.rows / seedSeconds).toLocaleString("en-US")} sync logs/s, INSERT ... SELECT generate_series, secondary indexes built after), VACUUM ANALYZE ${((performance.now() - vacuuming) / 1000).toFixed(1)} s; ` +
        `sync_logs ${(await tableState(client)).size}`,
    );
  }

  const random = seededRandom(32);
  const pick = (n: number) => Math.floor(random() * n);
  const ids = async (kind: string, n: number) => {
    const { rows } = await client.query<{ id: string }>(
      `SELECT ${uuidOf(kind, "$1::int")}::text AS id`,
      [n],
    );
    return rows[0]!.id;
  };
  const byProduct: Filter[] = [];
  const byStore: Filter[] = [];
  for (let i = 0; i < o.samples; i++) {
    byProduct.push({ productId: await ids("p", pick(o.products)) });
    byStore.push({ destinationAccountId: await ids("d", pick(o.stores)) });
  }
  const both = (f: Filter[], g: Filter[]) => f.flatMap((x, i) => [x, g[i]!]);

  const whole: Filter[] = Array.from({ length: 5 }, () => ({}));
  const first = (f: Filter[]) => f.slice(0, o.beforeSamples);
  await measure(db, both(first(byProduct), first(byStore)).slice(0, 4)); // warm-up
  const before = {
    product: await measure(db, first(byProduct), listSyncLogsBase),
    store: await measure(db, first(byStore), listSyncLogsBase),
    whole: await measure(db, whole, listSyncLogsBase),
  };
  console.log(`before (base): by product ${fmt(before.product)}`);
  console.log(`before (base): by store   ${fmt(before.store)}`);
  console.log(
    `before (base): whole org  ${fmt(before.whole)} (no filter: the count reads every row)`,
  );
  const started = performance.now();
  for (const sql of NEW_INDEXES) await client.query(sql);
  await client.query(`DROP INDEX "sync_logs_org_id_product_id_idx"`);
  await client.query(`ANALYZE sync_logs`);
  console.log(
    `this branch's two indexes built in ${((performance.now() - started) / 1000).toFixed(1)} s (the migration's CREATE INDEX)`,
  );
  await measure(db, both(byProduct, byStore).slice(0, 40));
  const after = {
    product: await measure(db, byProduct),
    store: await measure(db, byStore),
    whole: await measure(db, whole),
  };
  console.log(`after:         by product ${fmt(after.product)}`);
  console.log(`after:         by store   ${fmt(after.store)}`);
  console.log(
    `after:         whole org  ${fmt(after.whole)} (no filter; counted up to 10,000 rows)`,
  );

  // The pass, with a reader alternating product and store lists meanwhile.
  const policy = retentionPolicyOf({
    SYNC_LOG_SUCCESS_RETENTION_DAYS: 30,
    SYNC_LOG_FAILURE_RETENTION_DAYS: 90,
    IMPORT_ROWS_RETENTION_DAYS: 3,
    SESSION_RETENTION_DAYS: 1,
    RETENTION_BATCH_SIZE: 5_000,
    RETENTION_BATCH_PAUSE_MS: 50,
  });
  const beforePass = await tableState(client);
  const mixed = both(byProduct, byStore);
  let reading = true;
  const during: number[] = [];
  const reader = (async () => {
    for (let i = 0; reading; i++) {
      const t = performance.now();
      await listSyncLogs(db, ORG, { ...mixed[i % mixed.length]!, page: 1, pageSize: 25 });
      during.push(performance.now() - t);
    }
  })();
  const outcome = await runRetentionPass(databaseUrl, policy);
  reading = false;
  await reader;
  if (!outcome.ran) throw new Error(`the pass did not run: ${outcome.reason}`);
  const duringPass = summary(during);
  const removed = outcome.removed.syncLogs;
  const { rows: left } = await client.query<{ status: string; n: number }>(
    `SELECT status::text, count(*)::int AS n FROM sync_logs GROUP BY 1 ORDER BY 1`,
  );
  const afterPass = await tableState(client);
  const steady = await measure(db, mixed);
  console.log(
    `retention pass (30 days succeeded, 90 days failed, batches of 5,000, 50 ms pauses): removed ${removed.toLocaleString("en-US")} of ${Number(beforePass.rows).toLocaleString("en-US")} sync logs ` +
      `in ${(outcome.durationMs / 1000).toFixed(1)} s (${Math.round(removed / (outcome.durationMs / 1000)).toLocaleString("en-US")} rows/s)`,
  );
  console.log(
    `  left by status: ${left.map((r) => `${r.status} ${r.n.toLocaleString("en-US")}`).join(", ")}`,
  );
  console.log(`  readers during the pass: ${fmt(duringPass)}`);
  console.log(`  readers after the pass:  ${fmt(steady)}`);
  console.log(
    `  sync_logs before: ${beforePass.size}, ${Number(beforePass.dead).toLocaleString("en-US")} dead tuples; ` +
      `after: ${afterPass.size}, ${Number(afterPass.rows).toLocaleString("en-US")} live, ${Number(afterPass.dead).toLocaleString("en-US")} dead tuples (autovacuum reclaims them for reuse)`,
  );
  console.log(`load average ${await loadAverage()}`);
  const verdict = (name: string, l: Latencies) =>
    console.log(
      `${l.p99 < TARGET_P99_MS ? "PASS" : "FAIL"} ${name}: p99 ${l.p99.toFixed(1)} ms (target < ${TARGET_P99_MS} ms; ${(l.p99 / TARGET_P99_MS).toFixed(2)} of it)`,
    );
  verdict("list by product (after)", after.product);
  verdict("list by store (after)", after.store);
  verdict("list during the retention pass", duringPass);
  console.log(
    `ratio before/after p99: by product ${(before.product.p99 / after.product.p99).toFixed(1)}x, by store ${(before.store.p99 / after.store.p99).toFixed(1)}x; ` +
      `during/after-pass p99 ${(duringPass.p99 / steady.p99).toFixed(2)}`,
  );
  return true;
}

await runBench(main);
