import { randomBytes } from "node:crypto";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { loadImportWorkerConfig } from "@catalog/config/import-worker";
import { SCRAPE_JOB, scrapeQueue, workerConnection } from "@catalog/queue";
import { createImportMetrics } from "../src/metrics.js";

const gauge = (text: string, series: string) =>
  Number(
    text
      .split("\n")
      .find((line) => line.startsWith(`${series} `))
      ?.split(" ")[1],
  );

test("the scrape queue's depth is scraped from Redis; with Redis gone the scrape still answers, keeping the last figures and flagging the failed read", async () => {
  const config = loadImportWorkerConfig({
    ...process.env,
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:metrics-${randomBytes(3).toString("hex")}`,
  });
  const connection = workerConnection(config);
  const queue = scrapeQueue(connection, config.redisKeyPrefix);
  try {
    await queue.addBulk(
      [1, 2].map((n) => ({
        name: SCRAPE_JOB,
        data: { url: `https://shop.example/p/${n}`, requestId: `r${n}` },
      })),
    );
    const metrics = createImportMetrics(queue);
    const up = await metrics.registry.metrics();
    expect(gauge(up, 'catalog_import_queue_jobs{state="waiting"}')).toBe(2);
    expect(gauge(up, "catalog_import_queue_read_errors")).toBe(0);

    // The connection is gone: every read fails.
    connection.disconnect();
    const down = await metrics.registry.metrics();
    expect(gauge(down, 'catalog_import_queue_jobs{state="waiting"}')).toBe(2);
    expect(gauge(down, "catalog_import_queue_read_errors")).toBe(1);
  } finally {
    connection.disconnect();
    await queue.close().catch(() => {});
  }
}, 15_000);

test("a Redis that never answers holds a scrape up for the read's deadline only", async () => {
  // Accepts connections and never answers, as a Redis that hangs: a worker's connection waits.
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => void sockets.add(socket.on("error", () => {})));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const config = loadImportWorkerConfig({
    REDIS_URL: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`,
  });
  const connection = workerConnection(config);
  const queue = scrapeQueue(connection, config.redisKeyPrefix);
  queue.on("error", () => {});
  try {
    // Without the deadline this never resolves, and the test times out.
    const text = await createImportMetrics(queue).registry.metrics();
    expect(gauge(text, "catalog_import_queue_read_errors")).toBe(1);
  } finally {
    connection.disconnect();
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
}, 15_000);
