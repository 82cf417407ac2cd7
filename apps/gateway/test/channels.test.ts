import { newKeyringSpec } from "@catalog/db";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import type { ApiError, ChannelInfo, ChannelList } from "../src/api-types.js";
import { login, startGateway, type Gateway } from "./harness.js";

// Shopify and eBay set up; Etsy left without its client id.
const env = {
  CREDENTIALS_KEYS: newKeyringSpec(),
  SHOPIFY_CLIENT_ID: "app",
  SHOPIFY_CLIENT_SECRET: "secret",
  EBAY_CLIENT_ID: "ebay-app",
  EBAY_CLIENT_SECRET: "ebay-secret",
  EBAY_RU_NAME: "ru-name",
  ETSY_CLIENT_ID: "",
};
let gw: Gateway;
let t: TestOrg;
let member: string;

beforeAll(async () => {
  gw = await startGateway(env);
  t = await createTestOrg(gw.db, "channels");
  member = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const channels = async (g = gw, cookie = member) => {
  const res = await g.app.inject({ method: "GET", url: "/api/channels", headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return Object.fromEntries(res.json<ChannelList>().items.map((c) => [c.channel, c])) as Record<
    string,
    ChannelInfo
  >;
};
const names = (fields: { name: string; required: boolean }[], required = true) =>
  fields.filter((f) => f.required === required).map((f) => f.name);

test("every channel a merchant can connect, with its name and whether this server can connect it", async () => {
  const byChannel = await channels();
  expect(Object.keys(byChannel).sort()).toEqual([
    "amazon",
    "ebay",
    "etsy",
    "shopify",
    "woocommerce",
  ]);
  expect(
    Object.fromEntries(
      Object.values(byChannel).map((c) => [c.channel, [c.displayName, c.configured]]),
    ),
  ).toEqual({
    shopify: ["Shopify", true],
    ebay: ["eBay", true],
    etsy: ["Etsy", false],
    woocommerce: ["WooCommerce", true],
    amazon: ["Amazon", false],
  });
  // What configured promises: an unconfigured channel's connect answers 503.
  const owner = await login(gw.app, t.owner.email, t.owner.password);
  expect(
    (
      await gw.app.inject({
        method: "GET",
        url: "/api/integrations/etsy/connect",
        headers: { cookie: owner },
      })
    ).statusCode,
  ).toBe(503);
});

test("every listed channel's name for people, the stand-in's (which merchants do not connect) included, for labelling destinations", async () => {
  const listed = (
    await gw.app.inject({ method: "GET", url: "/api/channels", headers: { cookie: member } })
  ).json<ChannelList>();
  expect(listed.displayNames).toMatchObject({
    shopify: "Shopify",
    ebay: "eBay",
    etsy: "Etsy",
    woocommerce: "WooCommerce",
    amazon: "Amazon",
    standin: "Test channel",
  });
});

test("the connect form's fields: Shopify's shop, WooCommerce's store address, nothing for eBay and Etsy", async () => {
  const byChannel = await channels();
  expect(byChannel.shopify!.connectFields).toEqual([
    expect.objectContaining({
      name: "shop",
      label: "Shop domain",
      required: true,
      placeholder: "acme.myshopify.com",
    }),
  ]);
  // The form's check of the shop is the gateway's own.
  const shape = new RegExp(byChannel.shopify!.connectFields[0]!.pattern!);
  expect(shape.test("Harbour.myshopify.com")).toBe(true);
  expect(shape.test("harbour shop")).toBe(false);
  expect(shape.test("https://harbour.myshopify.com")).toBe(false);
  expect(byChannel.woocommerce!.connectFields).toEqual([
    expect.objectContaining({ name: "storeUrl", required: true }),
  ]);
  expect(byChannel.ebay!.connectFields).toEqual([]);
  expect(byChannel.etsy!.connectFields).toEqual([]);
});

test("the settings form's required fields are exactly those a destination's settings are refused without", async () => {
  const byChannel = await channels();
  expect(names(byChannel.ebay!.settingsFields)).toEqual([
    "marketplaceId",
    "categoryId",
    "merchantLocationKey",
    "paymentPolicyId",
    "returnPolicyId",
    "fulfillmentPolicyId",
  ]);
  expect(names(byChannel.etsy!.settingsFields)).toEqual([
    "shopId",
    "taxonomyId",
    "readinessStateId",
  ]);
  expect(names(byChannel.etsy!.settingsFields, false)).toEqual([
    "whoMade",
    "whenMade",
    "shippingProfileId",
  ]);
  expect(byChannel.shopify!.settingsFields).toEqual([]);
  for (const c of Object.values(byChannel)) {
    for (const f of [...c.connectFields, ...c.settingsFields])
      expect(f.label.length * f.description.length).toBeGreaterThan(0);
  }

  // An empty settings PATCH names each required field in its 422: a form can put each message by
  // its field.
  const owner = await login(gw.app, t.owner.email, t.owner.password);
  for (const channel of ["ebay", "etsy"] as const) {
    const d = await gw.db.destinationAccount.create({
      data: { orgId: t.org.id, channel, name: `${channel} store`, settings: {} },
    });
    const res = await gw.app.inject({
      method: "PATCH",
      url: `/api/destinations?id=${d.id}`,
      headers: { cookie: owner },
      payload: { settings: {} },
    });
    expect(res.statusCode).toBe(422);
    const message = res.json<ApiError>().error;
    for (const name of names(byChannel[channel]!.settingsFields))
      expect({ channel, name, named: message.includes(name) }).toEqual({
        channel,
        name,
        named: true,
      });
  }
});

test("without keys to seal tokens no channel is configured; without a session the list is 401", async () => {
  const bare = await startGateway({ ...env, CREDENTIALS_KEYS: "" });
  try {
    const cookie = await login(bare.app, t.member.email, t.member.password);
    expect(Object.values(await channels(bare, cookie)).map((c) => c.configured)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  } finally {
    await bare.close();
  }
  expect((await gw.app.inject({ method: "GET", url: "/api/v1/channels" })).statusCode).toBe(401);
});
