import type { ApiError } from "@catalog/gateway/api-types";
import { eventually } from "@catalog/testing";
import { readBreakers } from "@catalog/queue";
import { startPipeline, syncLogsOf, type Pipeline } from "./pipeline-harness.js";

let p: Pipeline;
beforeAll(async () => {
  p = await startPipeline();
  p.startWorker();
});
afterAll(() => p.close());

type Jobs = { jobs: { syncLogId: string; productId: string; destinationAccountId: string }[] };

const detail = async (productId: string) =>
  (
    await p.app.inject({
      method: "GET",
      url: `/api/products/${productId}`,
      headers: { cookie: p.cookie },
    })
  ).json<{
    listings: {
      destinationAccountId: string;
      status: string;
      remoteId: string | null;
      lastError: string | null;
    }[];
  }>();

test("a published product becomes `published` with its remote id, and publishing again updates the same listing", async () => {
  const destination = await p.addDestination("e2e");
  const [productId] = await p.addProducts(1, "Shirt");
  const first = await p.publish([productId!], [destination]);
  expect(first.body).toContain("accepted");
  const { jobs } = first.json<Jobs>();
  expect(jobs).toHaveLength(1);

  await eventually(async () => {
    const { listings } = await detail(productId!);
    expect(listings[0]).toMatchObject({ destinationAccountId: destination, status: "published" });
  }, 10_000);
  const remoteId = (await detail(productId!)).listings[0]!.remoteId;
  expect(p.standin.store("e2e").listings.map((l) => l.id)).toEqual([remoteId]);

  await p.app.inject({
    method: "PATCH",
    url: `/api/products/${productId}`,
    headers: { cookie: p.cookie },
    payload: { title: "Shirt, renamed" },
  });
  // The rename reaches the live listing by itself (automatic sync)...
  await eventually(
    async () => expect(p.standin.store("e2e").listings[0]!.title).toBe("Shirt, renamed"),
    10_000,
  );
  // ...and a publish asked for updates the same listing once more.
  const second = await p.publish([productId!], [destination]);
  const again = second.json<Jobs>().jobs[0]!.syncLogId;
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, [again]))[0]).toMatchObject({ status: "succeeded", remoteId }),
    10_000,
  );
  const store = p.standin.store("e2e");
  expect(store.counts).toMatchObject({ create: 1, update: 2 });
  expect(store.listings).toHaveLength(1);
  expect(store.listings[0]!.title).toBe("Shirt, renamed");
}, 30_000);

test("5xx answers are retried with backoff until the channel recovers; each attempt is counted in the sync log", async () => {
  const destination = await p.addDestination("flaky");
  p.standin.setFault("flaky", { kind: "error", status: 503, times: 2 });
  const [productId] = await p.addProducts(1, "Mug");
  const { jobs } = (await p.publish([productId!], [destination])).json<Jobs>();
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, [jobs[0]!.syncLogId]))[0]).toMatchObject({
        status: "succeeded",
        attempts: 3,
        error: null,
      }),
    10_000,
  );
  expect(p.standin.store("flaky").counts.create).toBe(1);
}, 30_000);

test("a validation error is given up at once: listing `failed` with the channel's message, one attempt", async () => {
  const destination = await p.addDestination("strict");
  p.standin.setFault("strict", { kind: "invalid", message: "category is required" });
  const [productId] = await p.addProducts(1, "Lamp");
  const { jobs } = (await p.publish([productId!], [destination])).json<Jobs>();
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, [jobs[0]!.syncLogId]))[0]).toMatchObject({
        status: "failed",
        attempts: 1,
        // The product's data: a retry alone cannot change it.
        failure: "product",
      }),
    10_000,
  );
  const { listings } = await detail(productId!);
  expect(listings[0]).toMatchObject({ status: "failed" });
  expect(listings[0]!.lastError).toContain("category is required");
}, 30_000);

test("an auth error gives up and marks the destination down", async () => {
  const destination = await p.addDestination("revoked");
  p.standin.setFault("revoked", { kind: "auth" });
  const [productId] = await p.addProducts(1, "Chair");
  const { jobs } = (await p.publish([productId!], [destination])).json<Jobs>();
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, [jobs[0]!.syncLogId]))[0]).toMatchObject({
        status: "failed",
        attempts: 1,
        failure: "access",
      }),
    10_000,
  );
  expect(
    (await p.db.destinationAccount.findUniqueOrThrow({ where: { id: destination } })).health,
  ).toBe("down");
}, 30_000);

test("after the last attempt the publish is dead; replay_dlq queues it again and it succeeds", async () => {
  const destination = await p.addDestination("down");
  p.standin.setFault("down", { kind: "error", status: 500 });
  const [productId] = await p.addProducts(1, "Vase");
  const { jobs } = (await p.publish([productId!], [destination])).json<Jobs>();
  const id = jobs[0]!.syncLogId;
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, [id]))[0]).toMatchObject({
        status: "dead",
        attempts: 3,
        failure: "temporary",
      }),
    15_000,
  );
  // The mirror follows the record: the dead-letter job is added once PostgreSQL says `dead`
  // (by the worker right after, or by the recovery within PENDING_LEASE_MS if that add failed).
  await eventually(
    async () => expect(await p.app.queues.deadLetters.getJob(id)).toBeTruthy(),
    10_000,
  );

  p.standin.setFault("down", null);
  const replay = await p.app.inject({
    method: "POST",
    url: "/api/system",
    headers: { cookie: p.adminCookie },
    payload: { action: "replay_dlq", destinationAccountId: destination },
  });
  expect(replay.statusCode).toBe(200);
  expect(replay.json()).toMatchObject({ action: "replay_dlq", affected: 1 });
  await eventually(
    async () => expect((await syncLogsOf(p.db, [id]))[0]).toMatchObject({ status: "succeeded" }),
    15_000,
  );
}, 40_000);

test("a channel's 429 pauses the destination without spending an attempt, and new publishes get 429 naming the channel", async () => {
  const destination = await p.addDestination("busy");
  p.standin.setFault("busy", { kind: "throttle", retryAfterSeconds: 2, times: 1 });
  const [first, second] = await p.addProducts(2, "Lamp");
  const { jobs } = (await p.publish([first!], [destination])).json<Jobs>();
  await eventually(async () => {
    const res = await p.publish([second!], [destination]);
    expect(res.statusCode).toBe(429);
    expect(res.json<ApiError>().error).toMatch(/standin asked to wait/);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  }, 5_000);
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, [jobs[0]!.syncLogId]))[0]).toMatchObject({
        status: "succeeded",
        attempts: 1,
      }),
    10_000,
  );
}, 30_000);

test("a destination failing every call opens its breaker for every worker, and a successful probe closes it", async () => {
  const destination = await p.addDestination("outage");
  p.standin.setFault("outage", { kind: "error", status: 502 });
  const products = await p.addProducts(4, "Bowl");
  const { jobs } = (await p.publish(products, [destination])).json<Jobs>();
  await eventually(async () => {
    const breaker = (await readBreakers(p.redis, p.config.redisKeyPrefix, [destination])).get(
      destination,
    )!;
    expect(breaker.state).toBe("open");
  }, 10_000);
  const listed = (
    await p.app.inject({ method: "GET", url: "/api/destinations", headers: { cookie: p.cookie } })
  ).json<{ items: { id: string; breaker: { state: string } }[] }>();
  expect(listed.items.find((d) => d.id === destination)?.breaker.state).toBe("open");
  const requestsWhileOpen = p.standin.store("outage").counts.requests;

  p.standin.setFault("outage", null);
  await eventually(async () => {
    const logs = await syncLogsOf(
      p.db,
      jobs.map((j) => j.syncLogId),
    );
    expect(logs.map((l) => l.status)).toEqual(jobs.map(() => "succeeded"));
  }, 20_000);
  expect(
    (await readBreakers(p.redis, p.config.redisKeyPrefix, [destination])).get(destination)!.state,
  ).toBe("closed");
  // While open, jobs were delayed rather than sent: the channel saw no call until the probe.
  expect(p.standin.store("outage").counts.requests).toBeGreaterThan(requestsWhileOpen);
}, 40_000);
