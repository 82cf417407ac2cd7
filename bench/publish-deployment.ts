// One publishing deployment for the publish bench: a database and a Redis prefix of its own,
// a seeded catalog, and publish worker processes (apps/publish-worker/src/main.ts) serving them.
// The bench process enqueues the way the gateway's POST /api/products/publish does (sync logs
// written by recordPublishRequest, then PublishQueues.enqueue) and watches PostgreSQL.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import pg from "pg";
import {
  createDb,
  createDestination,
  newKeyringSpec,
  parseKeyring,
  recordPublishRequest,
  type Db,
} from "@catalog/db";
import { redisKeyPrefix } from "@catalog/config";
import { PublishQueues } from "@catalog/queue";
import {
  createTestDatabase,
  deleteRedisPrefix,
  dropTestDatabase,
  newRedisPrefix,
} from "@catalog/testing";
import type { CleanupStack } from "./cleanup-stack.js";
import { startNodeProcess, type NodeProcess } from "./node-process.js";
import { seedCatalog } from "./seed-catalog.js";

/** The gateway route's limits per request (PublishBodySchema) and its lease (PENDING_LEASE_MS). */
export const REQUEST_MAX_PRODUCTS = 500;
export const REQUEST_MAX_DESTINATIONS = 20;
const PENDING_LEASE_MS = 60_000;

export interface DeploymentSettings {
  baseDatabaseUrl: string;
  redisUrl: string;
  standinUrl: string;
  products: number;
  workers: number;
  /** Extra environment of the worker processes (LOG_LEVEL, PUBLISH_LANES, ...). */
  workerEnv: Record<string, string>;
  /** Extra node flags of the worker processes (profiling). */
  workerNodeArgs?: string[];
}

export interface Destination {
  id: string;
  store: string;
}

export interface Completion {
  /** When the last of the jobs' sync logs was finished, as the worker stamped it (epoch ms). */
  lastFinishedAt: number;
  /** Sync logs that took more than one channel call (a retry, or a job run twice). */
  retried: number;
}

export interface PublishDeployment {
  label: string;
  databaseUrl: string;
  databaseName: string;
  prefix: string;
  orgId: string;
  /** Seeded products, ordered by SKU. */
  productIds: string[];
  db: Db;
  /** The bench's own plain connection, for polling and counters. */
  pg: pg.Client;
  redis: Redis;
  workers: NodeProcess[];
  addDestinations(count: number, tag: string): Promise<Destination[]>;
  /**
   * Records and enqueues product x destination publishes in gateway-sized requests, one after
   * another; returns the sync log ids.
   */
  publish(
    productIds: string[],
    destinationIds: string[],
    options?: { enqueue?: boolean },
  ): Promise<string[]>;
  waitForSucceeded(
    syncLogIds: string[],
    options?: { pollMs?: number; timeoutMs?: number },
  ): Promise<Completion>;
  close(): Promise<void>;
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= fn());
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function startDeployment(
  cleanup: CleanupStack,
  label: string,
  settings: DeploymentSettings,
): Promise<PublishDeployment> {
  const prefix = newRedisPrefix();
  const deletePrefix = once(() =>
    deleteRedisPrefix({ REDIS_URL: settings.redisUrl, REDIS_CLUSTER: false }, prefix),
  );
  cleanup.add(`delete Redis keys ${prefix}:* (${label})`, deletePrefix);
  let dropped: Promise<void> | undefined;
  const drop = (url: string) => (dropped ??= dropTestDatabase(url));
  const databaseUrl = await cleanup.adopt(
    `drop database (${label})`,
    createTestDatabase(settings.baseDatabaseUrl, "pubbench"),
    drop,
  );
  const dropDatabase = () => drop(databaseUrl);
  const databaseName = new URL(databaseUrl).pathname.slice(1);
  const seeded = await seedCatalog(databaseUrl, settings.products);

  const db = createDb(databaseUrl, { poolSize: 4 });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const redis = new Redis(settings.redisUrl, { maxRetriesPerRequest: null });
  // The workers' keys are under the key prefix REDIS_PREFIX implies ({prefix}), as are the queues.
  const queues = new PublishQueues(redis, redisKeyPrefix(prefix));
  const disconnect = once(async () => {
    await queues.close().catch(() => {});
    redis.disconnect();
    await client.end().catch(() => {});
    await db.$disconnect();
  });
  cleanup.add(`disconnect (${label})`, disconnect);

  const { rows } = await client.query<{ id: string }>(
    "SELECT id FROM products WHERE org_id = $1 ORDER BY sku",
    [seeded.orgId],
  );
  const productIds = rows.map((r) => r.id);
  const keyringSpec = newKeyringSpec();
  const keyring = parseKeyring(keyringSpec);

  const workers: NodeProcess[] = [];
  const env = {
    ...settings.workerEnv,
    DATABASE_URL: databaseUrl,
    REDIS_URL: settings.redisUrl,
    REDIS_PREFIX: prefix,
    CREDENTIALS_KEYS: keyringSpec,
    HEALTH_PORT: "0",
  };
  // Started together, before anything is enqueued: each worker's first recovery pass then finds
  // nothing to do.
  workers.push(
    ...(await Promise.all(
      Array.from({ length: settings.workers }, (_, i) =>
        startNodeProcess(
          cleanup,
          `publish worker ${label}#${i + 1}`,
          "apps/publish-worker/src/main.ts",
          env,
          "publish worker started",
          { nodeArgs: settings.workerNodeArgs },
        ),
      ),
    )),
  );
  const stopWorkers = once(() => Promise.all(workers.map((w) => w.stop())).then(() => {}));

  const deployment: PublishDeployment = {
    label,
    databaseUrl,
    databaseName,
    prefix,
    orgId: seeded.orgId,
    productIds,
    db,
    pg: client,
    redis,
    workers,

    async addDestinations(count, tag) {
      const suffix = randomBytes(3).toString("hex");
      const created: Destination[] = [];
      for (const batch of chunks(
        Array.from({ length: count }, (_, i) => i),
        8,
      )) {
        created.push(
          ...(await Promise.all(
            batch.map(async (i) => {
              const store = `${label}-${tag}-${suffix}-${i}`;
              const d = await createDestination(db, keyring, {
                orgId: seeded.orgId,
                channel: "standin",
                name: `store ${store}`,
                baseUrl: settings.standinUrl,
                credentials: { token: `${store}:secret` },
              });
              return { id: d.id, store };
            }),
          )),
        );
      }
      return created;
    },

    async publish(products, destinationIds, { enqueue = true } = {}) {
      const ids: string[] = [];
      for (const destinations of chunks(destinationIds, REQUEST_MAX_DESTINATIONS)) {
        for (const productChunk of chunks(products, REQUEST_MAX_PRODUCTS)) {
          const records = await recordPublishRequest(
            db,
            seeded.orgId,
            { productIds: productChunk, destinationIds: destinations },
            PENDING_LEASE_MS,
          );
          if (enqueue)
            await queues.enqueue(
              records.map((r) => ({
                syncLogId: r.syncLogId,
                orgId: seeded.orgId,
                productId: r.productId,
                destinationAccountId: r.destinationAccountId,
              })),
            );
          for (const r of records) ids.push(r.syncLogId);
        }
      }
      return ids;
    },

    async waitForSucceeded(syncLogIds, { pollMs = 200, timeoutMs = 600_000 } = {}) {
      const pending = new Set(syncLogIds);
      const deadline = Date.now() + timeoutMs;
      while (pending.size > 0) {
        const dead = workers.filter((w) => !w.alive());
        if (dead.length > 0)
          throw new Error(`${dead.map((w) => w.name).join(", ")} exited during the run`);
        if (Date.now() > deadline)
          throw new Error(
            `${label}: ${pending.size} of ${syncLogIds.length} publishes not succeeded after ${timeoutMs} ms`,
          );
        // Only the ids still pending, so each poll costs less than the one before.
        const { rows: ended } = await client.query<{ id: string; status: string }>(
          "SELECT id, status FROM sync_logs WHERE id = ANY($1::uuid[]) AND status NOT IN ('queued', 'running')",
          [[...pending]],
        );
        const failed = ended.filter((r) => r.status !== "succeeded");
        if (failed.length > 0) {
          const byStatus = new Map<string, number>();
          for (const r of failed) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
          throw new Error(
            `${label}: publishes ended without success: ${JSON.stringify(Object.fromEntries(byStatus))}`,
          );
        }
        for (const r of ended) pending.delete(r.id);
        if (pending.size > 0) await sleep(pollMs);
      }
      const {
        rows: [summary],
      } = await client.query<{ last: number; retried: string }>(
        `SELECT extract(epoch FROM max(finished_at)) * 1000 AS last, count(*) FILTER (WHERE attempts > 1) AS retried
         FROM sync_logs WHERE id = ANY($1::uuid[])`,
        [syncLogIds],
      );
      return { lastFinishedAt: Number(summary!.last), retried: Number(summary!.retried) };
    },

    close: once(async () => {
      await stopWorkers();
      await disconnect();
      await dropDatabase();
      await deletePrefix();
    }),
  };
  return deployment;
}
