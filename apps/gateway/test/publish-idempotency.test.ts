import { createTestOrg, eventually, makeProduct, type TestOrg } from "@catalog/testing";
import { claimIdempotencyKey } from "../src/routes/publish/idempotency.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix } from "./publishing-fixtures.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;
let productId: string;
let destinationId: string;

beforeAll(async () => {
  gw = await startGateway({ REDIS_PREFIX: privatePrefix("idem"), PUBLISH_DEADLINE_MS: "5000" });
  t = await createTestOrg(gw.db, "idempotency");
  cookie = await login(gw.app, t.member.email, t.member.password);
  productId = (await makeProduct(gw.db, t.org.id, { title: "Idem mug", sku: `IDEM-${Date.now()}` }))
    .id;
  destinationId = (await connectStandin(gw, t.org.id, "idem")).id;
});
afterAll(() => gw.close());

const publish = (key: string, payload: string) =>
  gw.app.inject({
    method: "POST",
    url: "/api/products/publish",
    headers: { cookie, "idempotency-key": key, "content-type": "application/json" },
    payload,
  });
const syncLogs = () => gw.db.syncLog.count({ where: { orgId: t.org.id } });

test("a key left pending by a gateway that died mid-request lapses with the request's deadline; the retry publishes", async () => {
  const body = { productIds: [productId], destinationAccountIds: [destinationId] };
  // What a gateway killed right after claiming leaves behind: a pending claim, never completed or
  // given back.
  await claimIdempotencyKey(
    gw.redis,
    gw.config.redisKeyPrefix,
    t.org.id,
    "order-killed",
    body,
    gw.config.PUBLISH_DEADLINE_MS,
  );
  const before = await syncLogs();

  const whileHeld = await publish("order-killed", JSON.stringify(body));
  expect(whileHeld.statusCode).toBe(409);
  expect(errorOf(whileHeld)).toMatch(/still being processed/);

  let accepted: { jobs: { productId: string }[] } | undefined;
  await eventually(async () => {
    const retry = await publish("order-killed", JSON.stringify(body));
    expect(retry.statusCode).toBe(200);
    accepted = retry.json();
  }, 15_000);
  expect(accepted!.jobs).toEqual([
    expect.objectContaining({ productId, destinationAccountId: destinationId }),
  ]);
  expect(await syncLogs()).toBe(before + 1);
}, 30_000);

test("the same request with its fields in another order is the same request: the first answer is replayed", async () => {
  const before = await syncLogs();
  const first = await publish(
    "order-reordered",
    `{"productIds":["${productId}"],"destinationAccountIds":["${destinationId}"]}`,
  );
  expect(first.statusCode).toBe(200);
  const reordered = await publish(
    "order-reordered",
    `{"destinationAccountIds":["${destinationId}"],"productIds":["${productId}"]}`,
  );
  expect(reordered.statusCode).toBe(200);
  expect(reordered.headers["idempotent-replayed"]).toBe("true");
  expect(reordered.json()).toEqual(first.json());
  expect(await syncLogs()).toBe(before + 1);

  const other = await publish(
    "order-reordered",
    `{"destinationAccountIds":["${destinationId}"],"productIds":["${productId}","${productId}"]}`,
  );
  expect(other.statusCode).toBe(422);
  expect(errorOf(other)).toMatch(/different request body/);
});
