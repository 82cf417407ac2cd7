import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { loadGatewayConfig, type GatewayConfig } from "@catalog/config/gateway";
import { createDb, type Db } from "@catalog/db";
import type { ResolvedAddress } from "@catalog/fetch/url-guard";
import {
  SCRAPE_QUEUE,
  producerConnection,
  queuePrefix,
  workerConnection,
  type RedisClient,
  type ScrapeJob,
  type ScrapeResult,
} from "@catalog/queue";
import { createScrapeProcessor } from "../../import-worker/src/scrape-processor.js";
import { buildApp, type AppDeps } from "../src/app.js";
import type { ProductList } from "../src/api-types.js";

export interface Gateway {
  app: FastifyInstance;
  db: Db;
  redis: RedisClient;
  config: GatewayConfig;
  close(): Promise<void>;
}

/**
 * Host names as the tests' gateways resolve them, without asking the network: names under the
 * reserved .example and .test domains are public sites (at an address nothing here connects to:
 * the gateway only checks image and page URLs, the import workers fetch), localhost is loopback,
 * and every other name (.invalid ones too) does not exist.
 */
export async function resolveTestHost(hostname: string): Promise<ResolvedAddress[]> {
  if (/(^|\.)(example|test)$/.test(hostname)) return [{ address: "93.184.216.34", family: 4 }];
  if (hostname === "localhost") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
}

/**
 * The real gateway on this run's database and Redis prefix; `env` overrides configuration and
 * `deps` the dependencies built here (a Redis client, the change feed, the resolver:
 * resolveTestHost).
 */
export async function startGateway(
  env: Record<string, string> = {},
  deps: Partial<Omit<AppDeps, "config" | "db">> = {},
): Promise<Gateway> {
  // Every test gateway of a run shares the run's Redis prefix, and every injected request comes
  // from 127.0.0.1: one per-address budget (600 a minute) for all the test files running side by
  // side, which a file polling an import used up for the others (their first request got 429).
  // Tests of the limiter set their own prefix and limit.
  const config = loadGatewayConfig(
    { ...process.env, RATE_LIMIT_MAX: "1000000", ...env },
    deps.channels,
  );
  const db = createDb(config.DATABASE_URL, { poolSize: 4 });
  const redis = deps.redis ?? producerConnection(config, { lazyConnect: true });
  if (!deps.redis) await redis.connect();
  const app = await buildApp({
    config,
    db,
    redis,
    logger: false,
    resolveHost: resolveTestHost,
    ...deps,
  });
  await app.ready();
  return {
    app,
    db,
    redis,
    config,
    async close() {
      await app.close();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}

/** Signs in and returns the Cookie header value for later requests. */
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
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === "sid");
  if (!cookie) throw new Error("login set no sid cookie");
  return `sid=${cookie.value}`;
}

/** GET /api/products?`query` with the session `cookie`, asserting a 200. */
export async function listProducts(
  gw: Gateway,
  cookie: string,
  query: string,
): Promise<ProductList> {
  const res = await gw.app.inject({
    method: "GET",
    url: `/api/products?${query}`,
    headers: { cookie },
  });
  expect(res.statusCode).toBe(200);
  return res.json<ProductList>();
}

/** Asserts the `{ error }` shape and returns the message. */
export function errorOf(res: LightMyRequestResponse): string {
  const body = res.json<Record<string, unknown>>();
  expect(Object.keys(body)).toEqual(["error"]);
  expect(typeof body.error).toBe("string");
  return body.error as string;
}

/**
 * The import worker's real scrape processor on the gateway's queue prefix, loopback pages allowed
 * (the tests' page servers), no browser fallback. close() stops it and its connection.
 */
export function startScrapeWorker(
  gw: Gateway,
  options: { fetchTimeoutMs: number; concurrency: number },
): { close(): Promise<void> } {
  const connection = workerConnection(gw.config);
  const worker = new Worker<ScrapeJob, ScrapeResult>(
    SCRAPE_QUEUE,
    createScrapeProcessor({
      policy: { allowPrivate: true },
      renderer: null,
      fetchTimeoutMs: options.fetchTimeoutMs,
      renderTimeoutMs: options.fetchTimeoutMs,
      maxBytes: 1_000_000,
    }),
    { connection, prefix: queuePrefix(gw.config.redisKeyPrefix), concurrency: options.concurrency },
  );
  return {
    close: async () => {
      await worker.close();
      connection.disconnect();
    },
  };
}

/** A Redis client that never connects: every command fails at once, as with Redis down. */
export function unreachableRedis(): Redis {
  return new Redis({
    host: "127.0.0.1",
    port: 1,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
}
