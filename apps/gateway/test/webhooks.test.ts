import {
  createImport,
  failImport,
  newKeyringSpec,
  recordWebhookEvent,
  type WebhookEventType,
} from "@catalog/db";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import type {
  Import,
  CreatedWebhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
} from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { documentUpload } from "./multipart.js";

let gw: Gateway;
let t: TestOrg;
let other: TestOrg;
let owner: string;
let member: string;
let otherOwner: string;

beforeAll(async () => {
  // Strict URL policy (no WEBHOOK_PRIVATE_URLS); names resolve through resolveTestHost.
  gw = await startGateway({ CREDENTIALS_KEYS: newKeyringSpec() });
  t = await createTestOrg(gw.db, "webhooks");
  other = await createTestOrg(gw.db, "webhooks-other");
  owner = await login(gw.app, t.owner.email, t.owner.password);
  member = await login(gw.app, t.member.email, t.member.password);
  otherOwner = await login(gw.app, other.owner.email, other.owner.password);
});
afterEach(async () => {
  // No pending delivery is left for a sender of a later test file to try.
  await gw.db.webhookEndpoint.deleteMany({ where: { orgId: { in: [t.org.id, other.org.id] } } });
});
afterAll(() => gw.close());

const call = (
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  cookie: string,
  payload?: object,
) => gw.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const create = (cookie: string, payload: object, base = "/api") =>
  call("POST", `${base}/webhooks`, cookie, payload);
const HOOK = { url: "https://hooks.example/in", events: ["import.finished", "listing.published"] };

test("an owner registers an endpoint: the secret is shown once, sealed at rest, never listed", async () => {
  const res = await create(owner, { ...HOOK, description: "ERP" }, "/api/v1");
  expect(res.statusCode).toBe(201);
  expect(res.headers["cache-control"]).toBe("no-store");
  const { endpoint, secret } = res.json<CreatedWebhook>();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  expect(endpoint).toMatchObject({
    url: HOOK.url,
    events: HOOK.events,
    description: "ERP",
    enabled: true,
    disabledAt: null,
    disabledReason: null,
  });

  const listed = await call("GET", "/api/webhooks", owner);
  expect(listed.json<WebhookEndpointList>().items).toEqual([endpoint]);
  const one = await call("GET", `/api/v1/webhooks/${endpoint.id}`, owner);
  expect(one.json<WebhookEndpoint>()).toEqual(endpoint);
  expect(listed.body + one.body).not.toContain(secret.slice(6));
  const row = await gw.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
  expect(row.secret).not.toContain(secret.slice(6));
});

test("members are 403 on every webhook route; another org's endpoint is 404", async () => {
  const { endpoint } = (await create(owner, HOOK)).json<CreatedWebhook>();
  const routes: ["GET" | "POST" | "PATCH" | "DELETE", string, object?][] = [
    ["GET", "/api/webhooks"],
    ["POST", "/api/webhooks", HOOK],
    ["GET", `/api/webhooks/${endpoint.id}`],
    ["PATCH", `/api/webhooks/${endpoint.id}`, { enabled: false }],
    ["DELETE", `/api/webhooks/${endpoint.id}`],
    ["GET", `/api/webhooks/${endpoint.id}/deliveries`],
    ["POST", `/api/webhooks/${endpoint.id}/test`],
  ];
  for (const [method, url, body] of routes) {
    const res = await call(method, url, member, body);
    expect(res.statusCode).toBe(403);
    errorOf(res);
  }
  expect((await gw.app.inject({ method: "GET", url: "/api/webhooks" })).statusCode).toBe(401);
  for (const [method, url, body] of routes.filter(([, url]) => url.includes(endpoint.id))) {
    const res = await call(method, url, otherOwner, body);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatch(/webhook endpoint .* not found/);
  }
});

test.each([
  ["http://127.0.0.1:8080/hook", /is a loopback address/],
  ["http://localhost/hook", /is a loopback address|resolves to a loopback address/],
  ["http://169.254.169.254/latest/meta-data/", /is a link-local address/],
  ["http://10.0.0.7/hook", /is a private address/],
  ["http://[::1]/hook", /is a loopback address/],
  ["http://metadata.google.internal/computeMetadata/v1/", /could not be found/],
  ["ftp://hooks.example/in", /is not an http\(s\) address/],
  ["https://user:pw@hooks.example/in", /contains a user name or password/],
])("a URL the public-URL policy refuses is 422 naming it: %s", async (url, why) => {
  const res = await create(owner, { ...HOOK, url });
  expect(res.statusCode).toBe(422);
  const message = errorOf(res);
  expect(message).toContain(`webhook URL ${url}`);
  expect(message).toMatch(why);
  expect((await call("GET", "/api/webhooks", owner)).json<WebhookEndpointList>().items).toEqual([]);
});

test("unknown event types are 422 naming them; over-long URLs and descriptions are refused", async () => {
  const res = await create(owner, { ...HOOK, events: ["import.finished", "order.created", "x"] });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/unknown event types "order\.created", "x"/);
  expect((await create(owner, { ...HOOK, events: [] })).statusCode).toBe(422);
  const longUrl = `https://hooks.example/${"a".repeat(2100)}`;
  expect((await create(owner, { ...HOOK, url: longUrl })).statusCode).toBe(422);
  expect((await create(owner, { ...HOOK, description: "d".repeat(501) })).statusCode).toBe(422);
});

test("an org has at most 20 endpoints", async () => {
  for (let i = 0; i < 20; i++) expect((await create(owner, HOOK)).statusCode).toBe(201);
  const res = await create(owner, HOOK);
  expect(res.statusCode).toBe(409);
  expect(errorOf(res)).toMatch(/at most 20 webhook endpoints/);
});

test("PATCH changes events and URL (screened again), turns an endpoint off, and re-enabling clears why it was disabled", async () => {
  const { endpoint } = (await create(owner, HOOK)).json<CreatedWebhook>();
  const url = `/api/webhooks/${endpoint.id}`;
  const changed = await call("PATCH", url, owner, {
    events: ["import.failed"],
    url: "https://other.example/hook",
    description: "new",
  });
  expect(changed.statusCode).toBe(200);
  expect(changed.json<WebhookEndpoint>()).toMatchObject({
    events: ["import.failed"],
    url: "https://other.example/hook",
    description: "new",
  });
  const refused = await call("PATCH", url, owner, { url: "http://192.168.1.1/" });
  expect(refused.statusCode).toBe(422);
  expect(errorOf(refused)).toMatch(/webhook URL http:\/\/192\.168\.1\.1\/ .*private address/);

  const off = await call("PATCH", url, owner, { enabled: false });
  expect(off.json<WebhookEndpoint>()).toMatchObject({
    enabled: false,
    disabledAt: expect.any(String) as string,
  });

  // As the sender leaves an endpoint that failed for days.
  await gw.db.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: { disabledReason: "every delivery failed for 5 days", failingSince: new Date() },
  });
  const on = await call("PATCH", url, owner, { enabled: true });
  expect(on.json<WebhookEndpoint>()).toMatchObject({
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
  });

  expect((await call("DELETE", url, owner)).statusCode).toBe(204);
  expect((await call("GET", url, owner)).statusCode).toBe(404);
  expect((await call("DELETE", url, owner)).statusCode).toBe(404);
});

test("a test event and a replay appear in the delivery log, newest first; the replay keeps the webhook-id", async () => {
  const { endpoint } = (await create(owner, HOOK)).json<CreatedWebhook>();
  const sent = await call("POST", `/api/webhooks/${endpoint.id}/test`, owner);
  expect(sent.statusCode).toBe(202);
  const test = sent.json<WebhookDelivery>();
  expect(test).toMatchObject({ eventType: "webhook.test", status: "pending", attempts: 0 });
  expect(test.messageId).toMatch(/^msg_/);

  const replayed = await call(
    "POST",
    `/api/v1/webhooks/${endpoint.id}/deliveries/${test.id}/replay`,
    owner,
  );
  expect(replayed.statusCode).toBe(202);
  const replay = replayed.json<WebhookDelivery>();
  expect(replay.id).not.toBe(test.id);
  expect(replay.messageId).toBe(test.messageId);

  const log = await call("GET", `/api/webhooks/${endpoint.id}/deliveries?pageSize=1`, owner);
  expect(log.json<WebhookDeliveryList>()).toMatchObject({
    items: [{ id: replay.id }],
    total: 2,
    totalPages: 2,
  });
  const unknown = await call(
    "POST",
    `/api/webhooks/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000000/replay`,
    owner,
  );
  expect(unknown.statusCode).toBe(404);
});

test("an event becomes one pending delivery per enabled endpoint of the org that subscribed to it", async () => {
  const subscribed = (await create(owner, HOOK)).json<CreatedWebhook>().endpoint;
  const elsewhere = (
    await create(owner, { ...HOOK, events: ["import.failed"] })
  ).json<CreatedWebhook>().endpoint;
  const off = (await create(owner, HOOK)).json<CreatedWebhook>().endpoint;
  await call("PATCH", `/api/webhooks/${off.id}`, owner, { enabled: false });
  await create(otherOwner, HOOK);

  const type: WebhookEventType = "listing.published";
  const ids = await recordWebhookEvent(gw.db, { orgId: t.org.id, type, data: { listingId: "l1" } });
  expect(ids).toHaveLength(1);
  const [row] = await gw.db.webhookDelivery.findMany({ where: { id: { in: ids } } });
  expect(row).toMatchObject({ endpointId: subscribed.id, status: "pending", eventType: type });
  expect(row!.payload).toMatchObject({ type, data: { listingId: "l1" } });

  // An import that fails tells the endpoints that asked for import.failed.
  const imp = await createImport(gw.db, t.org.id, {
    kind: "document",
    name: "spring.csv",
    currency: null,
    total: null,
    createdBy: null,
  });
  await failImport(gw.db, imp.id, "the document could not be read");
  const failed = await gw.db.webhookDelivery.findMany({ where: { endpointId: elsewhere.id } });
  expect(failed).toHaveLength(1);
  expect(failed[0]!.payload).toMatchObject({
    type: "import.failed",
    data: { importId: imp.id, name: "spring.csv", error: "the document could not be read" },
  });
});

test("an import that finishes storing is an import.finished event with its result", async () => {
  const { endpoint } = (
    await create(owner, { ...HOOK, events: ["import.finished"] })
  ).json<CreatedWebhook>();
  const body = documentUpload(
    "Title,SKU,Price,Currency\nHook Lamp,WH-LAMP,19.00,EUR\n",
    "hooks.csv",
  );
  const started = await gw.app.inject({
    method: "POST",
    url: "/api/imports",
    headers: { cookie: owner, ...body.headers },
    payload: body.payload,
  });
  expect(started.statusCode).toBe(202);
  const { id } = started.json<Import>();
  await settleImport(id, "previewing");
  expect((await call("POST", `/api/imports/${id}/store`, owner, {})).statusCode).toBe(202);
  expect(await settleImport(id, "storing")).toMatchObject({ status: "stored" });

  const [delivery] = await gw.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
  expect(delivery?.payload).toMatchObject({
    type: "import.finished",
    data: {
      importId: id,
      name: "hooks.csv",
      result: { created: 1, updated: 0, unchanged: 0, skipped: 0 },
    },
  });
});

/** Polls the import (the API's own progress) until it leaves `status`. */
async function settleImport(id: string, status: Import["status"]): Promise<Import> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const view = (await call("GET", `/api/imports/${id}`, owner)).json<Import>();
    if (view.status !== status) return view;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
