import { randomBytes } from "node:crypto";
import { pino } from "pino";
import { Registry } from "prom-client";
import { loadImportWorkerConfig } from "@catalog/config/import-worker";
import { createDb, type Db } from "@catalog/db";
import { retentionPolicyOf } from "@catalog/db/retention";
import {
  RETENTION_SCHEDULER,
  retentionQueue,
  workerConnection,
  type RedisClient,
} from "@catalog/queue";
import { deleteRedisPrefix, eventually, userWithExpiredSession } from "@catalog/testing";
import { startRetention } from "../src/retention/start.js";

// This file's own Redis prefix, under the run's.
const prefix = `${process.env.REDIS_PREFIX ?? "catalog-test"}:retention-${randomBytes(3).toString("hex")}`;
const config = loadImportWorkerConfig({ ...process.env, REDIS_PREFIX: prefix });
let db: Db;
let connection: RedisClient;
beforeAll(() => {
  db = createDb(config.DATABASE_URL, { poolSize: 2 });
  connection = workerConnection(config);
});
afterAll(async () => {
  connection.disconnect();
  await db.$disconnect();
  await deleteRedisPrefix(config, prefix);
});

test("the import worker schedules the pass in Redis, runs it on the interval and counts what it removed", async () => {
  const userId = await userWithExpiredSession(db, "worker retention", 3);
  const registry = new Registry();
  const close = await startRetention({
    databaseUrl: config.DATABASE_URL,
    connection,
    redisKeyPrefix: config.redisKeyPrefix,
    everyMs: 500,
    policy: retentionPolicyOf({ ...config, RETENTION_BATCH_PAUSE_MS: 0 }),
    registry,
    log: pino({ level: "silent" }),
  });
  try {
    const queue = retentionQueue(connection, config.redisKeyPrefix);
    expect((await queue.getJobScheduler(RETENTION_SCHEDULER))?.every).toBe(500);
    await queue.close();
    await eventually(async () => {
      expect(await db.session.count({ where: { userId } })).toBe(0);
    }, 15_000);
    await eventually(async () => {
      expect(await registry.metrics()).toMatch(
        /catalog_retention_removed_total\{kind="sessions"\} [1-9]/,
      );
    }, 15_000);
  } finally {
    await close();
  }
});
