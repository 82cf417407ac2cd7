// POST /api/integrations/amazon/notifications: Amazon's listing notifications, relayed by the
// operator with the shared secret, land on the listings they concern (GET /api/products/:id,
// `channelReports`); the wrong secret, a malformed or oversized body, an older or foreign
// notification change nothing.
import { readFileSync } from "node:fs";
import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { sharedInput } from "@catalog/test-support/shared-inputs";
import {
  createDestination,
  createWebhookEndpoint,
  newKeyringSpec,
  parseKeyring,
  type DestinationView,
} from "@catalog/db";
import { sharedContractsDir } from "@catalog/channels/standins";
import type { ProductDetail } from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { privatePrefix } from "./publishing-fixtures.js";

const SECRET = "relay-secret-for-tests";
const SELLER = "A1NOTIFYSELLER";
const US = "ATVPDKIKX0DER";
const DE = "A1PA6795UKMFR9";
const URL = "/api/integrations/amazon/notifications";
// Amazon's notification schemas (../shared/contracts/amazon); with CI set, their absence fails the
// run.
const contracts = sharedInput({
  what: "the channels' contracts",
  path: sharedContractsDir(),
  expectedAt: "../shared/contracts (or SHARED_CONTRACTS_DIR)",
  tests: "the check of Amazon's notification examples",
});

let gw: Gateway;
let a: TestOrg;
let cookie: string;
let us: DestinationView;
let single: string;
let family: string;
const stamp = Date.now();
const SKU = `NOTE-${stamp}`;
const PARENT = `NOTE-FAM-${stamp}`;
const CHILD = `${PARENT}-RED`;

const keyring = parseKeyring(newKeyringSpec());

beforeAll(async () => {
  gw = await startGateway({
    REDIS_PREFIX: privatePrefix("notifications"),
    AMAZON_NOTIFICATIONS_SECRET: SECRET,
  });
  a = await createTestOrg(gw.db, "notifications");
  cookie = await login(gw.app, a.member.email, a.member.password);
  const amazon = (marketplaceId: string) =>
    createDestination(gw.db, keyring, {
      orgId: a.org.id,
      channel: "amazon",
      name: `Amazon ${marketplaceId}`,
      externalId: SELLER,
      baseUrl: "https://sellingpartnerapi-na.amazon.com",
      settings: { sellerId: SELLER, marketplaceId, productType: "HOME" },
      credentials: { accessToken: "t" },
    });
  us = await amazon(US);
  single = (
    await makeProduct(gw.db, a.org.id, {
      title: "Notified mug",
      sku: SKU,
      price: { amount: "9.00", currency: "USD" },
    })
  ).id;
  family = (
    await makeProduct(gw.db, a.org.id, {
      title: "Notified shirt",
      sku: PARENT,
      price: { amount: "20.00", currency: "USD" },
      variants: [
        {
          sku: CHILD,
          title: "Red",
          price: { amount: "20.00", currency: "USD" },
          options: { Color: "Red" },
          gtin: null,
          availability: null,
          image: null,
        },
      ],
    })
  ).id;
  for (const productId of [single, family]) {
    const sku = productId === single ? SKU : PARENT;
    await gw.db.listing.create({
      data: {
        orgId: a.org.id,
        productId,
        destinationAccountId: us.id,
        status: "published",
        remoteId: sku,
      },
    });
  }
});
afterAll(() => gw.close());

const status = (sku: string, values: string[], at: string, marketplaceId = US) => ({
  NotificationVersion: "1.0",
  NotificationType: "LISTINGS_ITEM_STATUS_CHANGED",
  PayloadVersion: "1.0",
  EventTime: at,
  Payload: {
    SellerId: SELLER,
    MarketplaceId: marketplaceId,
    Asin: "B0STANDIN1",
    Sku: sku,
    CreatedDate: at,
    Status: values,
  },
  NotificationMetadata: {
    ApplicationId: "amzn1.sellerapps.app.test",
    SubscriptionId: "s",
    PublishTime: at,
    NotificationId: `n-${Math.random()}`,
  },
});
const issues = (sku: string, severities: string[], actions: string[], at: string) => ({
  NotificationVersion: "1.0",
  NotificationType: "LISTINGS_ITEM_ISSUES_CHANGE",
  PayloadVersion: "2023-12-13",
  EventTime: at,
  Payload: {
    SellerId: SELLER,
    MarketplaceId: US,
    Asin: "B0STANDIN1",
    Sku: sku,
    Severities: severities,
    EnforcementActions: actions,
  },
  NotificationMetadata: {
    ApplicationId: "amzn1.sellerapps.app.test",
    SubscriptionId: "s",
    PublishTime: at,
    NotificationId: `n-${Math.random()}`,
  },
});
const notify = (payload: unknown, secret = SECRET) =>
  gw.app.inject({
    method: "POST",
    url: URL,
    headers: { authorization: `Bearer ${secret}` },
    payload: payload as object,
  });
const reports = async (productId: string) => {
  const res = await gw.app.inject({
    method: "GET",
    url: `/api/products/${productId}`,
    headers: { cookie },
  });
  expect({ status: res.statusCode, body: res.statusCode === 200 ? "" : res.body }).toEqual({
    status: 200,
    body: "",
  });
  return res.json<ProductDetail>().listings[0]!.channelReports;
};

test("a status and an issues notification are recorded on the listing, newest first wins per kind", async () => {
  expect(await reports(single)).toEqual([]);
  expect(
    (await notify(status(SKU, ["BUYABLE", "DISCOVERABLE"], "2026-11-25T10:00:00.000Z"))).json(),
  ).toEqual({ matched: 1 });
  expect(
    (
      await notify(issues(SKU, ["ERROR"], ["LISTING_SUPPRESSED"], "2026-11-25T10:05:00.000Z"))
    ).json(),
  ).toEqual({ matched: 1 });
  expect(await reports(single)).toEqual([
    {
      sku: SKU,
      status: ["BUYABLE", "DISCOVERABLE"],
      issues: { severities: ["ERROR"], enforcementActions: ["LISTING_SUPPRESSED"] },
      reportedAt: "2026-11-25T10:05:00.000Z",
    },
  ]);
  // A late delivery of an older change does not undo the newer one; a newer one replaces it.
  await notify(issues(SKU, ["NONE"], [], "2026-11-25T09:00:00.000Z"));
  expect((await reports(single))[0]!.issues).toEqual({
    severities: ["ERROR"],
    enforcementActions: ["LISTING_SUPPRESSED"],
  });
  await notify(status(SKU, [], "2026-11-25T10:06:00.000Z"));
  await notify(issues(SKU, ["NONE"], [], "2026-11-25T11:00:00.000Z"));
  expect(await reports(single)).toEqual([
    {
      sku: SKU,
      status: [],
      issues: { severities: ["NONE"], enforcementActions: [] },
      reportedAt: "2026-11-25T11:00:00.000Z",
    },
  ]);
});

test("a variant's SKU reaches its product's listing, kept apart from the parent's", async () => {
  await notify(status(PARENT, ["DISCOVERABLE"], "2026-11-25T10:00:00.000Z"));
  await notify(status(CHILD, ["BUYABLE", "DISCOVERABLE"], "2026-11-25T10:00:01.000Z"));
  expect((await reports(family)).map((r) => [r.sku, r.status])).toEqual([
    [PARENT, ["DISCOVERABLE"]],
    [CHILD, ["BUYABLE", "DISCOVERABLE"]],
  ]);
});

test("reports landing together on one listing are all kept", async () => {
  const answers = await Promise.all([
    notify(status(CHILD, ["DISCOVERABLE"], "2026-11-25T12:00:00.000Z")),
    notify(issues(CHILD, ["WARNING"], [], "2026-11-25T12:00:00.000Z")),
    notify(issues(PARENT, ["WARNING"], ["SEARCH_SUPPRESSED"], "2026-11-25T12:00:00.000Z")),
  ]);
  expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
  const byKey = Object.fromEntries((await reports(family)).map((r) => [r.sku, r]));
  expect(byKey[CHILD]).toMatchObject({
    status: ["DISCOVERABLE"],
    issues: { severities: ["WARNING"] },
  });
  expect(byKey[PARENT]).toMatchObject({
    status: ["DISCOVERABLE"],
    issues: { severities: ["WARNING"], enforcementActions: ["SEARCH_SUPPRESSED"] },
  });
});

test("a report that comes while the first publish is still saving its remote id lands by the product's SKU", async () => {
  const sku = `NOTE-FIRST-${stamp}`;
  const productId = (
    await makeProduct(gw.db, a.org.id, {
      title: "Mug being published",
      sku,
      price: { amount: "9.00", currency: "USD" },
    })
  ).id;
  await gw.db.listing.create({
    data: { orgId: a.org.id, productId, destinationAccountId: us.id, status: "publishing" },
  });
  expect(
    (await notify(status(sku, ["BUYABLE", "DISCOVERABLE"], "2026-11-25T10:00:00.000Z"))).json(),
  ).toEqual({ matched: 1 });
  expect((await reports(productId)).map((r) => [r.sku, r.status])).toEqual([
    [sku, ["BUYABLE", "DISCOVERABLE"]],
  ]);
});

test("another marketplace, another seller or an unknown SKU matches nothing and is still taken (no retries)", async () => {
  const before = await reports(single);
  expect((await notify(status(SKU, ["DELETED"], "2026-11-25T13:00:00.000Z", DE))).json()).toEqual({
    matched: 0,
  });
  const foreign = status(SKU, ["DELETED"], "2026-11-25T13:00:00.000Z");
  foreign.Payload.SellerId = "A9OTHERSELLER";
  expect((await notify(foreign)).json()).toEqual({ matched: 0 });
  expect(
    (await notify(status("NO-SUCH-SKU", ["DELETED"], "2026-11-25T13:00:00.000Z"))).json(),
  ).toEqual({ matched: 0 });
  expect(await reports(single)).toEqual(before);
});

test("without the secret, with another, or with a body that is not a notification, nothing is recorded", async () => {
  const before = await reports(single);
  const late = status(SKU, ["DELETED"], "2027-01-01T00:00:00.000Z");
  const bare = await gw.app.inject({ method: "POST", url: URL, payload: late });
  expect(bare.statusCode).toBe(401);
  expect(errorOf(bare)).toMatch(/AMAZON_NOTIFICATIONS_SECRET.*Authorization: Bearer/);
  expect((await notify(late, "wrong-secret")).statusCode).toBe(401);

  const malformed = await notify({ ...late, EventTime: "yesterday" });
  expect(malformed.statusCode).toBe(422);
  expect(errorOf(malformed)).toMatch(/EventTime/);
  expect((await notify({ ...late, NotificationType: "ANY_OFFER_CHANGED" })).statusCode).toBe(422);
  const huge = { ...late, Padding: "x".repeat(70 * 1024) };
  expect((await notify(huge)).statusCode).toBe(413);
  expect(await reports(single)).toEqual(before);
});

(contracts ? test : test.skip)(
  "the examples in Amazon's own notification schemas are taken",
  async () => {
    for (const file of [
      "ListingsItemStatusChangeNotification.json",
      "ListingsItemIssuesChangeNotification_2023-12-13.json",
    ]) {
      const example = (
        JSON.parse(readFileSync(`${contracts}/amazon/${file}`, "utf8")) as {
          examples: { Payload: Record<string, unknown> }[];
        }
      ).examples[0]!;
      example.Payload = { ...example.Payload, SellerId: SELLER, MarketplaceId: US, Sku: SKU };
      const res = await notify(example);
      expect({ file, status: res.statusCode, body: res.json<{ matched: number }>() }).toEqual({
        file,
        status: 200,
        body: { matched: 1 },
      });
    }
  },
);

test("a gateway without the secret takes none, and says which variable turns them on", async () => {
  const off = await startGateway({
    REDIS_PREFIX: privatePrefix("notifications-off"),
    AMAZON_NOTIFICATIONS_SECRET: "",
  });
  try {
    const res = await off.app.inject({
      method: "POST",
      url: URL,
      headers: { authorization: "Bearer anything" },
      payload: status(SKU, ["DELETED"], "2027-01-01T00:00:00.000Z"),
    });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatch(/set AMAZON_NOTIFICATIONS_SECRET/);
  } finally {
    await off.close();
  }
});

test("a recorded report is a listing.channel_report webhook event for the org's subscribed endpoints", async () => {
  const { endpoint } = await createWebhookEndpoint(gw.db, keyring, a.org.id, {
    url: "https://hooks.example/amazon",
    events: ["listing.channel_report"],
  });
  try {
    await notify(status(SKU, ["BUYABLE"], "2026-11-26T08:00:00.000Z"));
    const deliveries = await gw.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.payload).toMatchObject({
      type: "listing.channel_report",
      data: {
        productId: single,
        channel: "amazon",
        sku: SKU,
        status: ["BUYABLE"],
        reportedAt: "2026-11-26T08:00:00.000Z",
      },
    });
  } finally {
    await gw.db.webhookEndpoint.delete({ where: { id: endpoint.id } });
  }
});
