import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { redisKeyPrefix } from "@catalog/config";
import { loadImportWorkerConfig } from "@catalog/config/import-worker";
import {
  createDb,
  createWebhookEndpoint,
  newKeyringSpec,
  parseKeyring,
  recordWebhookEvent,
  replayWebhookDelivery,
  type Db,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import { WebhookQueue, escapeGlob, producerConnection, unlinkMatching } from "@catalog/queue";
import { createTestOrg, eventually, type TestOrg } from "@catalog/testing";
import { startWebhookSender, type WebhookSender } from "../src/webhooks/start-webhook-sender.js";
import { deliverAttempt, type WebhookSenderDeps } from "../src/webhooks/webhook-processor.js";
import { signedHeaders, startReceiver } from "./webhook-receiver.js";

const config = loadImportWorkerConfig(process.env);
// This file's own queue keys, so its sender sees only its own jobs and a "flush" removes only them.
const prefix = redisKeyPrefix(
  `${process.env.REDIS_PREFIX}:webhooks-${randomBytes(3).toString("hex")}`,
);
const keyring = parseKeyring(newKeyringSpec());
// Loopback receivers are allowed (WEBHOOK_PRIVATE_URLS); no name is ever looked up on the network.
const loopback: UrlPolicy = {
  allowPrivate: true,
  resolve: async (hostname) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  },
};
const HOUR = 3600_000;

let db: Db;
let t: TestOrg;
let queue: WebhookQueue;
let queueRedis: ReturnType<typeof producerConnection>;
let sender: WebhookSender | null = null;
const receivers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  db = createDb(config.DATABASE_URL, { poolSize: 4 });
  t = await createTestOrg(db, "webhook-sender");
  queueRedis = producerConnection(config);
  queue = new WebhookQueue(queueRedis, prefix);
});
afterEach(async () => {
  await sender?.close();
  sender = null;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await db.webhookEndpoint.deleteMany({ where: { orgId: t.org.id } });
});
afterAll(async () => {
  await queue.close();
  queueRedis.disconnect();
  await flushQueueKeys();
  await db.$disconnect();
});

/** Deletes every Redis key of this file's queue; how many there were. */
async function flushQueueKeys(): Promise<number> {
  const redis = producerConnection(config, { lazyConnect: true });
  await redis.connect();
  try {
    return await unlinkMatching(redis, `${escapeGlob(prefix)}*`);
  } finally {
    redis.disconnect();
  }
}

async function receiver(statuses?: number[]) {
  const r = await startReceiver(statuses);
  receivers.push(r);
  return r;
}

const endpoint = (url: string, events = ["import.finished"]) =>
  createWebhookEndpoint(db, keyring, t.org.id, { url, events, description: "test" });

const event = () =>
  recordWebhookEvent(db, {
    orgId: t.org.id,
    type: "import.finished",
    data: { importId: "imp-1", result: { created: 2 } },
  });

function deps(overrides: Partial<WebhookSenderDeps> = {}): WebhookSenderDeps {
  return {
    db,
    keyring,
    queue,
    policy: loopback,
    timeoutMs: 5_000,
    retry: { retryDelaysMs: [HOUR, HOUR], disableAfterMs: 5 * 24 * HOUR, leaseMs: 60_000 },
    ...overrides,
  };
}

async function startSender(retryDelaysMs: number[], sweepEveryMs = 60_000) {
  sender = await startWebhookSender({
    ...deps({ retry: { retryDelaysMs, disableAfterMs: 5 * 24 * HOUR, leaseMs: 60_000 } }),
    redis: config,
    redisKeyPrefix: prefix,
    concurrency: 2,
    sweepEveryMs,
  });
}

const delivery = (id: string) => db.webhookDelivery.findUniqueOrThrow({ where: { id } });

test("an event is POSTed from the queue, signed: the receiver verifies it with the standardwebhooks library", async () => {
  const r = await receiver([200]);
  const { secret } = await endpoint(r.url);
  const ids = await event();
  expect(ids).toHaveLength(1);
  await startSender([HOUR]);
  await queue.enqueueNew(ids);
  await r.waitFor(1);

  const [got] = r.received;
  expect(got!.headers["content-type"]).toBe("application/json");
  const payload = new Webhook(secret).verify(got!.body, signedHeaders(got!.headers));
  expect(payload).toMatchObject({
    type: "import.finished",
    data: { importId: "imp-1", result: { created: 2 } },
  });
  expect(Number.isNaN(Date.parse((payload as { timestamp: string }).timestamp))).toBe(false);
  // A wrong secret does not verify.
  expect(() =>
    new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(
      got!.body,
      signedHeaders(got!.headers),
    ),
  ).toThrow();
  await eventually(async () =>
    expect(await delivery(ids[0]!)).toMatchObject({
      status: "succeeded",
      attempts: 1,
      responseStatus: 200,
      error: null,
      messageId: got!.headers["webhook-id"],
    }),
  );
});

test("a 500 is retried on the schedule with the same webhook-id, until the endpoint answers 2xx", async () => {
  const r = await receiver([500, 500, 200]);
  const { secret, endpoint: ep } = await endpoint(r.url);
  const ids = await event();
  await startSender([30, 30]);
  await queue.enqueueNew(ids);
  await r.waitFor(3);

  const messageIds = r.received.map((got) => got.headers["webhook-id"]);
  expect(new Set(messageIds).size).toBe(1);
  for (const got of r.received)
    expect(() => new Webhook(secret).verify(got.body, signedHeaders(got.headers))).not.toThrow();
  await eventually(async () =>
    expect(await delivery(ids[0]!)).toMatchObject({
      status: "succeeded",
      attempts: 3,
      responseStatus: 200,
    }),
  );
  // A success ends the endpoint's run of failures.
  expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).toMatchObject({
    failingSince: null,
    enabled: true,
  });
});

test("after the last attempt of the schedule the delivery has failed, with the endpoint's answer", async () => {
  const r = await receiver([503]);
  await endpoint(r.url);
  const [id] = await event();
  const d = deps({
    retry: { retryDelaysMs: [HOUR], disableAfterMs: 5 * 24 * HOUR, leaseMs: 60_000 },
  });
  const first = await deliverAttempt(d, id!, 0);
  expect(first).toMatchObject({ sent: true, ok: false, retryInMs: HOUR });
  expect(await delivery(id!)).toMatchObject({
    status: "pending",
    attempts: 1,
    responseStatus: 503,
  });
  // The same attempt again (a duplicate job) sends nothing.
  expect(await deliverAttempt(d, id!, 0)).toEqual({ sent: false });
  // Not yet due: nothing is sent.
  expect(await deliverAttempt(d, id!, 1)).toEqual({ sent: false });

  const later = deps({ ...d, now: () => new Date(Date.now() + HOUR) });
  expect(await deliverAttempt(later, id!, 1)).toMatchObject({
    sent: true,
    ok: false,
    retryInMs: null,
  });
  expect(r.received).toHaveLength(2);
  expect(await delivery(id!)).toMatchObject({
    status: "failed",
    attempts: 2,
    responseStatus: 503,
    error: "the endpoint answered 503: boom",
    nextAttemptAt: null,
  });
});

test("a replay is sent with the original webhook-id and body", async () => {
  const r = await receiver([200]);
  const { endpoint: ep, secret } = await endpoint(r.url);
  const [id] = await event();
  await deliverAttempt(deps(), id!, 0);
  const replay = await replayWebhookDelivery(db, t.org.id, ep.id, id!);
  expect(replay.id).not.toBe(id);
  await deliverAttempt(deps(), replay.id, 0);

  expect(r.received).toHaveLength(2);
  const [first, again] = r.received;
  expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
  expect(again!.body).toBe(first!.body);
  expect(() =>
    new Webhook(secret).verify(again!.body, signedHeaders(again!.headers)),
  ).not.toThrow();
  expect(await delivery(replay.id)).toMatchObject({
    status: "succeeded",
    messageId: replay.messageId,
  });
});

test("a URL the public-URL policy refuses at delivery time is never connected to: the delivery fails naming why", async () => {
  const r = await receiver([200]);
  // Registered while the name was public; now it resolves to loopback (DNS rebinding).
  await endpoint(`http://hooks.test:${r.port}/in`);
  const [rebound] = await event();
  const strict: UrlPolicy = {
    allowPrivate: false,
    resolve: async () => [{ address: "127.0.0.1", family: 4 }],
  };
  await deliverAttempt(deps({ policy: strict }), rebound!, 0);
  expect(r.received).toHaveLength(0);
  const failed = await delivery(rebound!);
  expect(failed).toMatchObject({ status: "failed", attempts: 1, responseStatus: null });
  expect(failed.error).toMatch(
    /^not sent: .*hooks\.test.* resolves to a loopback address \(127\.0\.0\.1\)/,
  );

  // A metadata address stored earlier is refused the same way, before any connection.
  await db.webhookEndpoint.deleteMany({ where: { orgId: t.org.id } });
  await endpoint("http://169.254.169.254/latest/meta-data/");
  const [metadata] = await event();
  await deliverAttempt(deps({ policy: { allowPrivate: false } }), metadata!, 0);
  expect((await delivery(metadata!)).error).toMatch(/169\.254\.169\.254.* is a link-local address/);
});

test("an endpoint failing for the configured period is disabled, says why, and gets no more events", async () => {
  const r = await receiver([500]);
  const { endpoint: ep } = await endpoint(r.url);
  const t0 = Date.now();
  const at = (ms: number) => deps({ now: () => new Date(t0 + ms) });
  const [first] = await event();
  await deliverAttempt(at(0), first!, 0);
  expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).toMatchObject({
    enabled: true,
    failingSince: new Date(t0),
  });
  const [waiting] = await event();
  // Two hours later the first delivery's retry fails again: still within the period.
  await deliverAttempt(at(HOUR), first!, 1);
  expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).enabled).toBe(true);

  // Five days after the first failure, another failure disables it.
  await deliverAttempt(at(5 * 24 * HOUR), waiting!, 0);
  const disabled = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
  expect(disabled).toMatchObject({ enabled: false, disabledAt: new Date(t0 + 5 * 24 * HOUR) });
  expect(disabled.disabledReason).toMatch(
    /^every delivery failed for 5 days \(last error: the endpoint answered 500: boom\)/,
  );
  expect(await delivery(first!)).toMatchObject({ status: "failed" });
  expect(await delivery(waiting!)).toMatchObject({ status: "failed" });
  expect(await event()).toEqual([]);
  expect(r.received).toHaveLength(3);
});

test("a pending delivery survives a Redis flush: the sweep finds it and sends it", async () => {
  const r = await receiver([200]);
  await endpoint(r.url);
  const ids = await event();
  await queue.enqueueNew(ids);
  // Redis loses every key of this file's queue (FLUSHALL, a failover without persistence).
  expect(await flushQueueKeys()).toBeGreaterThan(0);

  await startSender([HOUR], 50);
  await r.waitFor(1);
  expect(r.received[0]!.headers["webhook-id"]).toBe((await delivery(ids[0]!)).messageId);
  await eventually(async () => expect((await delivery(ids[0]!)).status).toBe("succeeded"));
});
