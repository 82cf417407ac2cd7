import { randomBytes } from "node:crypto";
import { pino, type DestinationStream } from "pino";
import { loadGatewayConfig, type GatewayConfig } from "@catalog/config/gateway";
import { loadPublishWorkerConfig, type PublishWorkerConfig } from "@catalog/config/publish-worker";
import { buildApp } from "@catalog/gateway";

type FastifyInstance = Awaited<ReturnType<typeof buildApp>>;
export type InjectResponse = Awaited<ReturnType<FastifyInstance["inject"]>>;
import { startStandinChannel, type StandinChannel } from "@catalog/channels/standins";
import {
  createDb,
  createDestination,
  newKeyringSpec,
  parseKeyring,
  type CredentialKeyring,
  type Db,
} from "@catalog/db";
import { producerConnection, workerConnection, type RedisClient } from "@catalog/queue";
import {
  createTestDatabase,
  createTestOrg,
  deleteRedisPrefix,
  dropTestDatabase,
  freePort,
  makeProduct,
  type TestOrg,
} from "@catalog/testing";
import { createWorkerLogger } from "../src/logger.js";
import { startPublishWorker, type PublishWorker } from "../src/publish-worker.js";

/**
 * Worker settings small enough for tests to watch retries, breakers and recovery happen. Leases
 * and job locks keep their shipped defaults (JOB_LOCK_MS, LEASE_HEARTBEAT_MS): the tests of a
 * killed worker hold the defaults to their promise.
 */
export const FAST_WORKER_ENV = {
  PUBLISH_LANES: "4",
  PUBLISH_ATTEMPTS: "3",
  PUBLISH_BACKOFF_MS: "50",
  SLICE_MS: "500",
  CHANNEL_TIMEOUT_MS: "3000",
  BREAKER_VOLUME: "3",
  BREAKER_WINDOW_MS: "10000",
  BREAKER_RESET_MS: "1500",
  RECOVERY_INTERVAL_MS: "300",
  PENDING_LEASE_MS: "1500",
  LOG_LEVEL: "silent",
};

export interface Pipeline {
  db: Db;
  redis: RedisClient;
  app: FastifyInstance;
  standin: StandinChannel;
  org: TestOrg;
  /** The org's member: imports, reads and publishes. */
  cookie: string;
  /** The org's owner: connects, changes and disconnects destinations. */
  ownerCookie: string;
  /** The platform operator: /api/system. */
  adminCookie: string;
  env: Record<string, string>;
  /**
   * The gateway's configuration: where Redis is (an endpoint) and the key prefix of this pipeline.
   */
  config: GatewayConfig;
  /** The keys the gateway and workers seal credentials with. */
  keyring: CredentialKeyring;
  workers: PublishWorker[];
  /** Starts one more in-process publish worker. */
  startWorker(overrides?: Record<string, string>): PublishWorker;
  addDestination(store: string, name?: string): Promise<string>;
  addProducts(count: number, label?: string): Promise<string[]>;
  publish(
    productIds: string[],
    destinationIds: string[],
    headers?: Record<string, string>,
  ): Promise<InjectResponse>;
  close(): Promise<void>;
}

/**
 * A pipeline whose gateway listens on a real port, with one worker running, and the channel
 * stand-in `startStandin` makes, told the gateway's address so that its authorize page sends the
 * browser back to the gateway's callback, as a real channel does.
 */
export async function startServedPipeline<S extends { env: Record<string, string> }>(
  startStandin: (gateway: string) => Promise<S>,
  env: Record<string, string> = {},
  options: { logStream?: DestinationStream } = {},
): Promise<{ p: Pipeline; standin: S; gateway: string }> {
  const port = await freePort();
  const gateway = `http://127.0.0.1:${port}`;
  const standin = await startStandin(gateway);
  const p = await startPipeline({ ...standin.env, PUBLIC_URL: gateway, ...env }, options);
  await p.app.listen({ port, host: "127.0.0.1" });
  p.startWorker();
  return { p, standin, gateway };
}

export async function login(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/session",
    payload: { email, password },
  });
  const cookie = res.cookies.find((c: { name: string }) => c.name === "sid");
  if (!cookie) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return `sid=${cookie.value}`;
}

/**
 * A gateway, an in-process stand-in channel and any number of publish workers, on a database
 * and a Redis prefix of their own: the workers' recovery re-enqueues every pending publish in
 * its database, and flush_redis empties its prefix, so neither may reach other test files' work.
 * `databaseUrl` names a migrated database the caller owns (one on a private server) instead.
 */
export async function startPipeline(
  env: Record<string, string> = {},
  options: { logStream?: DestinationStream; databaseUrl?: string } = {},
): Promise<Pipeline> {
  const prefix = `${process.env.REDIS_PREFIX}:pw-${randomBytes(3).toString("hex")}`;
  const databaseUrl =
    options.databaseUrl ?? (await createTestDatabase(process.env.DATABASE_URL!, "pipeline"));
  const fullEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...FAST_WORKER_ENV,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: prefix,
    CREDENTIALS_KEYS: newKeyringSpec(),
    LAB_MODE: "true",
    ...env,
  };
  const gatewayConfig = loadGatewayConfig(fullEnv);
  const db = createDb(gatewayConfig.DATABASE_URL, { poolSize: 6 });
  const redis = producerConnection(gatewayConfig, { lazyConnect: true });
  await redis.connect();
  // Silent unless a test reads the logs: then the gateway and every worker log as deployed, at
  // info.
  const app = await buildApp({
    config: gatewayConfig,
    db,
    redis,
    logger: options.logStream ? { level: "info", stream: options.logStream } : false,
  });
  await app.ready();
  const standin = await startStandinChannel();
  const org = await createTestOrg(db, "publish");
  const keyring = parseKeyring(fullEnv.CREDENTIALS_KEYS!);
  const workers: PublishWorker[] = [];
  const workerResources: { redis: RedisClient; db: Db }[] = [];

  const pipeline: Pipeline = {
    db,
    redis,
    app,
    standin,
    org,
    workers,
    keyring,
    env: fullEnv,
    config: gatewayConfig,
    cookie: await login(app, org.member.email, org.member.password),
    ownerCookie: await login(app, org.owner.email, org.owner.password),
    adminCookie: await login(app, org.admin.email, org.admin.password),
    startWorker(overrides = {}) {
      const config: PublishWorkerConfig = loadPublishWorkerConfig({ ...fullEnv, ...overrides });
      const workerDb = createDb(config.DATABASE_URL, { poolSize: 6 });
      const workerRedis = workerConnection(config);
      workerResources.push({ redis: workerRedis, db: workerDb });
      const worker = startPublishWorker({
        config,
        db: workerDb,
        redis: workerRedis,
        log: options.logStream
          ? createWorkerLogger("info", options.logStream)
          : pino({ level: "silent" }),
      });
      workers.push(worker);
      return worker;
    },
    async addDestination(store, name = `store ${store}`) {
      const d = await createDestination(db, keyring, {
        orgId: org.org.id,
        channel: "standin",
        name,
        baseUrl: standin.url,
        credentials: { token: `${store}:secret` },
      });
      return d.id;
    },
    async addProducts(count, label = "Product") {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const p = await makeProduct(db, org.org.id, {
          title: `${label} ${i}`,
          sku: `${label.replace(/\W/g, "").toUpperCase()}-${randomBytes(3).toString("hex")}-${i}`,
          price: { amount: "19.90", currency: "EUR" },
          images: [`https://cdn.example.com/${i}.jpg`],
        });
        ids.push(p.id);
      }
      return ids;
    },
    publish(productIds, destinationIds, headers = {}) {
      return app.inject({
        method: "POST",
        url: "/api/products/publish",
        headers: { cookie: pipeline.cookie, ...headers },
        payload: { productIds, destinationAccountIds: destinationIds },
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.close(2_000)));
      for (const r of workerResources) {
        r.redis.disconnect();
        await r.db.$disconnect();
      }
      await app.close();
      await standin.close();
      redis.disconnect();
      await deleteRedisPrefix(gatewayConfig, prefix);
      await db.$disconnect();
      if (!options.databaseUrl) await dropTestDatabase(databaseUrl);
    },
  };
  return pipeline;
}

/** A sync log's status as the API shows it. */
export async function syncLogsOf(db: Db, syncLogIds: string[]) {
  return db.syncLog.findMany({ where: { id: { in: syncLogIds } }, orderBy: { createdAt: "asc" } });
}
