// POST /api/products/publish with dryRun: true answers, per product x destination, what would
// fail and why, on every channel, and creates nothing.
import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { createDestination, newKeyringSpec, parseKeyring, type DestinationView } from "@catalog/db";
import { setChannelWait } from "@catalog/queue";
import type { PublishCheck } from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { privatePrefix } from "./publishing-fixtures.js";
import { anyOf } from "@catalog/test-support/matchers";
import type { OpenApiDocument } from "./openapi-document.js";

let gw: Gateway;
let a: TestOrg;
let member: string;
const dest: Record<string, DestinationView> = {};
let good: string;
let noPrice: string;
let noSku: string;

const keyring = parseKeyring(newKeyringSpec());
const EBAY = {
  marketplaceId: "EBAY_US",
  categoryId: "31388",
  merchantLocationKey: "wh-1",
  paymentPolicyId: "pay",
  returnPolicyId: "ret",
  fulfillmentPolicyId: "ship",
};
const ETSY = { shopId: 4242, taxonomyId: 1633, readinessStateId: 7 };

beforeAll(async () => {
  gw = await startGateway({ REDIS_PREFIX: privatePrefix("dry-run") });
  a = await createTestOrg(gw.db, "dry-run");
  member = await login(gw.app, a.member.email, a.member.password);
  const add = async (
    key: string,
    channel: DestinationView["channel"],
    baseUrl: string,
    settings: Record<string, unknown> = {},
  ) => {
    dest[key] = await createDestination(gw.db, keyring, {
      orgId: a.org.id,
      channel,
      name: key,
      baseUrl,
      settings,
      credentials: { accessToken: "t" },
    });
  };
  await add("shopify", "shopify", "https://acme.myshopify.com");
  await add("ebay", "ebay", "https://api.ebay.com", EBAY);
  await add("ebayUnset", "ebay", "https://api.ebay.com", { marketplaceId: "EBAY_US" });
  await add("etsy", "etsy", "https://openapi.etsy.com", ETSY);
  await add("etsyUnset", "etsy", "https://openapi.etsy.com", {
    shopId: 4242,
    taxonomyId: "clothing",
  });
  await add("woocommerce", "woocommerce", "https://shop.example");
  await add("standin", "standin", "https://standin.example");
  await add("standinBadCurrency", "standin", "https://standin.example", { currency: "euro" });
  // No product type chosen: Amazon's validation preview is not reached (packages/channels tests it
  // on its stand-in).
  await add("amazonUnset", "amazon", "https://sellingpartnerapi-na.amazon.com", {
    sellerId: "A1SELLER",
    marketplaceId: "ATVPDKIKX0DER",
  });
  const stamp = Date.now();
  good = (
    await makeProduct(gw.db, a.org.id, {
      title: "Dry mug",
      sku: `DRY-${stamp}`,
      price: { amount: "19.90", currency: "EUR" },
    })
  ).id;
  noPrice = (
    await makeProduct(gw.db, a.org.id, { title: "Dry mug without a price", sku: `DRY-NP-${stamp}` })
  ).id;
  noSku = (
    await makeProduct(gw.db, a.org.id, {
      title: "Dry mug without a SKU",
      price: { amount: "12.00", currency: "EUR" },
    })
  ).id;
});
afterAll(() => gw.close());

const post = (
  payload: Record<string, unknown>,
  headers: Record<string, string> = { cookie: member },
  url = "/api/products/publish",
) => gw.app.inject({ method: "POST", url, headers, payload });
const dryRun = async (productIds: string[], destinationAccountIds: string[]) => {
  const res = await post({ productIds, destinationAccountIds, dryRun: true });
  expect(res.statusCode).toBe(200);
  return res.json<PublishCheck>();
};
const fieldsOf = (check: PublishCheck, productId: string, destinationId: string) =>
  check.items
    .find((i) => i.productId === productId && i.destinationAccountId === destinationId)!
    .problems.map((p) => p.field);

/** What a publish leaves behind: runs, sync logs, listings, queued jobs. */
async function footprint() {
  const orgId = a.org.id;
  const [runs, syncLogs, listings] = await Promise.all([
    gw.db.publishRun.count({ where: { orgId } }),
    gw.db.syncLog.count({ where: { orgId } }),
    gw.db.listing.count({ where: { orgId } }),
  ]);
  const destinations = (
    await gw.app.inject({ method: "GET", url: "/api/destinations", headers: { cookie: member } })
  ).json<{ items: { queue: Record<string, number> }[] }>();
  const jobs = destinations.items.reduce(
    (n, d) => n + Object.values(d.queue).reduce((x, y) => x + y, 0),
    0,
  );
  return { runs, syncLogs, listings, jobs };
}

test("every channel answers: a missing required field, missing settings and an all-good pair, per product x destination; nothing is created", async () => {
  const before = await footprint();
  const all = [
    "shopify",
    "ebay",
    "ebayUnset",
    "etsy",
    "etsyUnset",
    "woocommerce",
    "standin",
    "standinBadCurrency",
    "amazonUnset",
  ].map((k) => dest[k]!.id);
  const check = await dryRun([good, noPrice, noSku], all);

  expect(check.dryRun).toBe(true);
  // Product-major, each product's destinations in request order.
  expect(check.items.map((i) => [i.productId, i.destinationAccountId])).toEqual(
    [good, noPrice, noSku].flatMap((p) => all.map((d) => [p, d])),
  );
  expect(check.items.find((i) => i.destinationAccountId === dest.etsy!.id)).toMatchObject({
    channel: "etsy",
  });
  for (const item of check.items) expect(item.ok).toBe(item.problems.length === 0);

  // The all-good product passes wherever the destination is complete.
  for (const k of ["shopify", "ebay", "etsy", "woocommerce", "standin"])
    expect({ k, problems: fieldsOf(check, good, dest[k]!.id) }).toEqual({ k, problems: [] });
  // A product without a price fails on every channel, naming the field.
  for (const k of ["shopify", "ebay", "etsy", "woocommerce", "standin"])
    expect({ k, problems: fieldsOf(check, noPrice, dest[k]!.id) }).toEqual({
      k,
      problems: ["price"],
    });
  // Only eBay keys listings by SKU.
  expect(
    check.items.find((i) => i.productId === noSku && i.destinationAccountId === dest.ebay!.id)!
      .problems,
  ).toEqual([{ field: "sku", message: "sku is required: eBay keys every listing by SKU" }]);
  for (const k of ["shopify", "etsy", "woocommerce", "standin"])
    expect(fieldsOf(check, noSku, dest[k]!.id)).toEqual([]);

  // Missing or wrong settings fail every product there, each setting named, the product's problems
  // after them.
  expect(fieldsOf(check, good, dest.ebayUnset!.id)).toEqual([
    "settings.categoryId",
    "settings.merchantLocationKey",
    "settings.paymentPolicyId",
    "settings.returnPolicyId",
    "settings.fulfillmentPolicyId",
  ]);
  expect(fieldsOf(check, noPrice, dest.ebayUnset!.id)).toEqual([
    ...fieldsOf(check, good, dest.ebayUnset!.id),
    "price",
  ]);
  expect(
    check.items.find((i) => i.productId === good && i.destinationAccountId === dest.etsyUnset!.id)!
      .problems,
  ).toEqual([
    {
      field: "settings.taxonomyId",
      message: 'taxonomyId must be a positive integer, not "clothing"',
    },
    { field: "settings.readinessStateId", message: "readinessStateId is required" },
  ]);
  expect(fieldsOf(check, good, dest.standinBadCurrency!.id)).toEqual(["settings.currency"]);
  expect(fieldsOf(check, good, dest.amazonUnset!.id)).toEqual(["settings.productType"]);
  expect(fieldsOf(check, noPrice, dest.amazonUnset!.id)).toEqual(["settings.productType", "price"]);
  expect(fieldsOf(check, noSku, dest.amazonUnset!.id)).toEqual(["settings.productType", "sku"]);

  // Ok: the good product on the five complete destinations, the one without a SKU on four of them.
  expect(check.summary).toEqual({ checked: 27, ok: 9, failing: 18 });
  expect(await footprint()).toEqual(before);
  expect(before).toEqual({ runs: 0, syncLogs: 0, listings: 0, jobs: 0 });
});

test("the same ids, limits and auth as a publish: unknown ids and empty lists 422, no session 401, /api/v1 alike", async () => {
  const missing = "00000000-0000-4000-8000-000000000000";
  const real = await post({
    productIds: [good, missing],
    destinationAccountIds: [dest.shopify!.id],
  });
  const dry = await post({
    productIds: [good, missing],
    destinationAccountIds: [dest.shopify!.id],
    dryRun: true,
  });
  expect(dry.statusCode).toBe(422);
  expect(errorOf(dry)).toBe(errorOf(real));
  expect(errorOf(dry)).toContain(missing);
  const unknownDestination = await post({
    productIds: [good],
    destinationAccountIds: [missing],
    dryRun: true,
  });
  expect(unknownDestination.statusCode).toBe(422);
  expect(errorOf(unknownDestination)).toMatch(/unknown or disconnected destination ids/);
  expect(
    (await post({ productIds: [], destinationAccountIds: [dest.shopify!.id], dryRun: true }))
      .statusCode,
  ).toBe(422);
  expect(
    (await post({ productIds: [good], destinationAccountIds: [dest.shopify!.id], dryRun: "yes" }))
      .statusCode,
  ).toBe(422);
  expect(
    (
      await post(
        { productIds: [good], destinationAccountIds: [dest.shopify!.id], dryRun: true },
        {},
      )
    ).statusCode,
  ).toBe(401);
  const v1 = await post(
    { productIds: [good], destinationAccountIds: [dest.shopify!.id], dryRun: true },
    { cookie: member },
    "/api/v1/products/publish",
  );
  expect(v1.json()).toMatchObject({ dryRun: true, summary: { checked: 1, ok: 1, failing: 0 } });
  // Another org's product is unknown here.
  const other = await createTestOrg(gw.db, "dry-run-other");
  const foreign = (await makeProduct(gw.db, other.org.id, { title: "Not yours" })).id;
  expect(
    (await post({ productIds: [foreign], destinationAccountIds: [dest.shopify!.id], dryRun: true }))
      .statusCode,
  ).toBe(422);
});

test("a destination its channel asked to wait is named per pair instead of refusing the check", async () => {
  const waiting = await createDestination(gw.db, keyring, {
    orgId: a.org.id,
    channel: "standin",
    name: "Busy",
    baseUrl: "https://standin.example",
    credentials: { token: "t" },
  });
  await setChannelWait(gw.redis, gw.config.redisKeyPrefix, waiting.id, {
    until: Date.now() + 60_000,
    channel: "standin",
    reason: "429",
  });
  const check = await dryRun([good], [waiting.id, dest.standin!.id]);
  expect(check.items.map((i) => [i.ok, i.problems.map((p) => p.field)])).toEqual([
    [false, ["destination"]],
    [true, []],
  ]);
  expect(check.items[0]!.problems[0]!.message).toMatch(
    /^standin asked to wait until \d{4}-.*Z: publishing there is refused until then$/,
  );
  // The real publish is refused whole.
  expect((await post({ productIds: [good], destinationAccountIds: [waiting.id] })).statusCode).toBe(
    429,
  );
});

test("an Idempotency-Key is not taken by a dry run, and OpenAPI documents the dry run", async () => {
  const key = `dry-${Date.now()}`;
  const body = { productIds: [good], destinationAccountIds: [dest.standin!.id] };
  expect(
    (await post({ ...body, dryRun: true }, { cookie: member, "idempotency-key": key })).statusCode,
  ).toBe(200);
  expect(await gw.db.publishRun.count({ where: { orgId: a.org.id } })).toBe(0);
  // Had the dry run claimed the key, this other body would be refused (422).
  const real = await post(body, { cookie: member, "idempotency-key": key });
  expect(real.statusCode).toBe(200);
  expect(real.json()).toMatchObject({ accepted: true, runId: anyOf(String) });

  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const op = doc.paths["/api/products/publish"]!.post!;
  expect(op.requestBody!.content["application/json"]!.schema.properties!.dryRun).toMatchObject({
    type: "boolean",
  });
  expect(op.description).toMatch(/dryRun: true/);
  const answers = op.responses["200"]!.content!["application/json"]!.schema.anyOf!;
  expect(answers.map((s) => s.required)).toEqual([
    expect.arrayContaining(["runId"]),
    expect.arrayContaining(["dryRun", "items", "summary"]),
  ]);
});
