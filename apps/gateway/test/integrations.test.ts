// The gateway's side of connecting a store, where no channel is involved: guards, configuration
// errors, refused states and destination settings. Connecting through each channel's authorize
// page is tested end to end in apps/publish-worker/test/channels-end-to-end.test.ts.
import { startShopifyStandin, type ShopifyStandin } from "@catalog/channels/standins";
import { createDestination, newKeyringSpec, parseKeyring } from "@catalog/db";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { privatePrefix } from "./publishing-fixtures.js";
import type { DestinationList, UpdatedDestination } from "../src/api-types.js";

const keys = newKeyringSpec();
const configured = {
  SHOPIFY_CLIENT_ID: "app-id",
  SHOPIFY_CLIENT_SECRET: "app-secret",
  EBAY_CLIENT_ID: "",
  ETSY_CLIENT_ID: "",
};
let gw: Gateway;
let t: TestOrg;
/** An owner's session: connecting and changing destinations is for owners. */
let cookie: string;

beforeAll(async () => {
  gw = await startGateway({
    REDIS_PREFIX: privatePrefix("integrations"),
    CREDENTIALS_KEYS: keys,
    PUBLIC_URL: "https://catalog.example",
    ...configured,
  });
  t = await createTestOrg(gw.db, "integrations");
  cookie = await login(gw.app, t.owner.email, t.owner.password);
});
afterAll(() => gw.close());

const get = (url: string, c: string | null = cookie) =>
  gw.app.inject({ method: "GET", url, headers: c ? { cookie: c } : {} });

describe("only an org's owner connects, changes or disconnects a destination", () => {
  const keyring = parseKeyring(keys);
  // An org of its own: the tests below count the destinations of the file's org.
  let g: TestOrg;
  let owner: string;
  beforeAll(async () => {
    g = await createTestOrg(gw.db, "integrations-roles");
    owner = await login(gw.app, g.owner.email, g.owner.password);
  });

  test("a member, or the platform operator in its own org, is 403 on connect, callback, settings and disconnect", async () => {
    const d = await createDestination(gw.db, keyring, {
      orgId: g.org.id,
      channel: "standin",
      name: "guarded",
      credentials: { token: "x" },
    });
    const state = new URL(
      (await get("/api/integrations/shopify/connect?shop=acme.myshopify.com", owner)).headers
        .location as string,
    ).searchParams.get("state")!;
    for (const user of [g.member, g.admin]) {
      const c = await login(gw.app, user.email, user.password);
      const attempts = {
        connect: await get("/api/integrations/shopify/connect?shop=acme.myshopify.com", c),
        callback: await get(
          `/api/integrations/shopify/callback?code=abc&shop=acme.myshopify.com&state=${state}`,
          c,
        ),
        settings: await gw.app.inject({
          method: "PATCH",
          url: `/api/destinations?id=${d.id}`,
          headers: { cookie: c },
          payload: { name: "renamed" },
        }),
        disconnect: await gw.app.inject({
          method: "DELETE",
          url: `/api/destinations?id=${d.id}`,
          headers: { cookie: c },
        }),
      };
      for (const [attempt, res] of Object.entries(attempts)) {
        expect({ user: user.email, attempt, status: res.statusCode }).toEqual({
          user: user.email,
          attempt,
          status: 403,
        });
        expect(errorOf(res)).toMatch(/an owner of the org must do this/);
      }
      // They still read the org's destinations.
      const listed = await get("/api/destinations", c);
      expect(listed.statusCode).toBe(200);
      expect(listed.json<DestinationList>().items.map((i) => i.id)).toContain(d.id);
    }
    expect(await gw.db.destinationAccount.findUniqueOrThrow({ where: { id: d.id } })).toMatchObject(
      { name: "guarded", disconnectedAt: null },
    );
    // The owner's connect state was not spent by their attempts: the owner's callback reaches the
    // channel check.
    expect(
      (
        await get(
          `/api/integrations/shopify/callback?code=abc&shop=acme.myshopify.com&state=${state}&timestamp=1&hmac=00ff`,
          owner,
        )
      ).statusCode,
    ).toBe(401);
  });

  test("the owner renames and disconnects", async () => {
    const d = await createDestination(gw.db, keyring, {
      orgId: g.org.id,
      channel: "standin",
      name: "mine",
      credentials: { token: "x" },
    });
    const patched = await gw.app.inject({
      method: "PATCH",
      url: `/api/destinations?id=${d.id}`,
      headers: { cookie: owner },
      payload: { name: "renamed" },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ id: d.id, name: "renamed" });
    const deleted = await gw.app.inject({
      method: "DELETE",
      url: `/api/destinations?id=${d.id}`,
      headers: { cookie: owner },
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ id: d.id, disconnected: true, listingsLeftLive: 0 });
  });
});

describe("GET /api/integrations/:channel/connect", () => {
  test("needs a session", async () => {
    expect(
      (await get("/api/integrations/shopify/connect?shop=acme.myshopify.com", null)).statusCode,
    ).toBe(401);
  });

  test("redirects to the channel's authorize page with a state and our callback", async () => {
    const res = await get("/api/v1/integrations/shopify/connect?shop=Acme-Store.myshopify.com");
    expect(res.statusCode).toBe(302);
    const to = new URL(res.headers.location as string);
    expect(`${to.origin}${to.pathname}`).toBe(
      "https://acme-store.myshopify.com/admin/oauth/authorize",
    );
    expect(to.searchParams.get("client_id")).toBe("app-id");
    expect(to.searchParams.get("redirect_uri")).toBe(
      "https://catalog.example/api/integrations/shopify/callback",
    );
    expect(to.searchParams.get("state")).toMatch(/^[\w-]{40,}$/);
    // Each connect draws its own state.
    const again = new URL(
      (await get("/api/integrations/shopify/connect?shop=acme-store.myshopify.com")).headers
        .location as string,
    );
    expect(again.searchParams.get("state")).not.toBe(to.searchParams.get("state"));
  });

  test("a shop that is not a myshopify.com domain is 422 naming it", async () => {
    for (const shop of [
      "evil.example.com",
      "acme.myshopify.com.evil.example",
      "",
      "a b.myshopify.com",
    ]) {
      const res = await get(`/api/integrations/shopify/connect?shop=${encodeURIComponent(shop)}`);
      expect(res.statusCode).toBe(422);
      expect(errorOf(res)).toMatch(/shop/);
    }
  });

  test("an unknown channel is 404; the stand-in has no connect flow either", async () => {
    expect(errorOf(await get("/api/integrations/zalando/connect"))).toMatch(
      /no integration for channel "zalando"/,
    );
    expect((await get("/api/integrations/standin/connect")).statusCode).toBe(404);
  });

  test("a channel without its client id configured is 503 naming the variables", async () => {
    const res = await get("/api/integrations/etsy/connect");
    expect(res.statusCode).toBe(503);
    expect(errorOf(res)).toMatch(/etsy is not configured on this server: set ETSY_CLIENT_ID/);
  });

  test("without CREDENTIALS_KEYS nothing can be connected (503)", async () => {
    const bare = await startGateway({
      REDIS_PREFIX: privatePrefix("integrations-bare"),
      CREDENTIALS_KEYS: "",
      ...configured,
    });
    try {
      const owner = await login(bare.app, t.owner.email, t.owner.password);
      const res = await bare.app.inject({
        method: "GET",
        url: "/api/integrations/shopify/connect?shop=a.myshopify.com",
        headers: { cookie: owner },
      });
      expect(res.statusCode).toBe(503);
      expect(errorOf(res)).toMatch(/CREDENTIALS_KEYS/);
    } finally {
      await bare.close();
    }
  });
});

describe("GET /api/integrations/:channel/callback", () => {
  test("without a state it is 422; with an unknown one 403, and nothing is created", async () => {
    expect(errorOf(await get("/api/integrations/shopify/callback?code=x"))).toMatch(
      /state is required/,
    );
    const res = await get(
      "/api/integrations/shopify/callback?code=x&state=never-issued&shop=a.myshopify.com",
    );
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatch(/unknown, expired, already used/);
    expect(await gw.db.destinationAccount.count({ where: { orgId: t.org.id } })).toBe(0);
  });

  test("a Shopify callback with a forged signature is refused, and its state is spent", async () => {
    const state = new URL(
      (await get("/api/integrations/shopify/connect?shop=acme.myshopify.com")).headers
        .location as string,
    ).searchParams.get("state")!;
    const forged = await get(
      `/api/integrations/shopify/callback?code=abc&shop=acme.myshopify.com&state=${state}&timestamp=1&hmac=00ff`,
    );
    expect(forged.statusCode).toBe(401);
    expect(
      (
        await get(
          `/api/integrations/shopify/callback?code=abc&shop=acme.myshopify.com&state=${state}&timestamp=1&hmac=00ff`,
        )
      ).statusCode,
    ).toBe(403);
  });

  test("POST is only for channels that deliver keys that way", async () => {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/integrations/shopify/callback",
      payload: { user_id: "x" },
    });
    expect(res.statusCode).toBe(404);
    const woo = await gw.app.inject({
      method: "POST",
      url: "/api/integrations/woocommerce/callback",
      payload: { user_id: "not-a-state", consumer_key: "ck", consumer_secret: "cs" },
    });
    expect(woo.statusCode).toBe(403);
  });
});

describe("PATCH /api/destinations", () => {
  const keyring = parseKeyring(keys);
  const ebay = () =>
    createDestination(gw.db, keyring, {
      orgId: t.org.id,
      channel: "ebay",
      name: "eBay",
      credentials: { accessToken: "t" },
    });
  const patch = (id: string, payload: unknown) =>
    gw.app.inject({
      method: "PATCH",
      url: `/api/destinations?id=${id}`,
      headers: { cookie },
      payload: payload as object,
    });

  test("settings the channel needs are checked: 422 names every missing one and nothing is written", async () => {
    const d = await ebay();
    const res = await patch(d.id, { settings: { marketplaceId: "EBAY_US" } });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/categoryId/);
    expect(errorOf(res)).toMatch(/fulfillmentPolicyId/);
    expect(
      (await gw.db.destinationAccount.findUniqueOrThrow({ where: { id: d.id } })).settings,
    ).toEqual({});
  });

  test("complete settings are stored and listed; null removes one; the name can change", async () => {
    const d = await ebay();
    const settings = {
      marketplaceId: "EBAY_US",
      categoryId: "20625",
      merchantLocationKey: "wh-1",
      paymentPolicyId: "p",
      returnPolicyId: "r",
      fulfillmentPolicyId: "f",
    };
    const res = await patch(d.id, { name: "eBay US", settings: { ...settings, note: "x" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: d.id,
      name: "eBay US",
      settings: { ...settings, note: "x" },
    });
    expect(
      (await patch(d.id, { settings: { note: null } })).json<UpdatedDestination>().settings,
    ).toEqual(settings);
    const listed = (await get("/api/destinations"))
      .json<DestinationList>()
      .items.find((i) => i.id === d.id);
    expect(listed?.settings).toEqual(settings);
  });

  test("another org's destination is 404, a body with unknown fields 422", async () => {
    const other = await createTestOrg(gw.db, "integrations-other");
    const foreign = await createDestination(gw.db, keyring, {
      orgId: other.org.id,
      channel: "standin",
      name: "theirs",
      credentials: { token: "x" },
    });
    expect((await patch(foreign.id, { name: "mine" })).statusCode).toBe(404);
    const d = await ebay();
    expect((await patch(d.id, { credentials: { accessToken: "stolen" } })).statusCode).toBe(422);
  });
});

describe("the connect and its callback from a browser land back in the dashboard", () => {
  const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
  let standin: ShopifyStandin;
  let g: Gateway;
  let o: TestOrg;
  let owner: string;

  beforeAll(async () => {
    standin = await startShopifyStandin({ contract: false });
    g = await startGateway({
      ...standin.env,
      REDIS_PREFIX: privatePrefix("callback-html"),
      CREDENTIALS_KEYS: keys,
      PUBLIC_URL: "https://catalog.example",
    });
    o = await createTestOrg(g.db, "callback-html");
    owner = await login(g.app, o.owner.email, o.owner.password);
  });
  afterAll(async () => {
    await g?.close();
    await standin?.close();
  });

  /**
   * connect -> the stand-in's authorize page approves -> the path and query it sends the browser
   * back to.
   */
  async function approvedCallback(): Promise<string> {
    const start = await g.app.inject({
      method: "GET",
      url: "/api/integrations/shopify/connect?shop=html-shop.myshopify.com",
      headers: { cookie: owner },
    });
    expect(start.statusCode).toBe(302);
    const approved = await fetch(start.headers.location as string, { redirect: "manual" });
    const back = new URL(approved.headers.get("location")!);
    expect(back.pathname).toBe("/api/integrations/shopify/callback");
    return `${back.pathname}${back.search}`;
  }
  const location = (res: { headers: Record<string, unknown> }) =>
    new URL(res.headers.location as string, "https://catalog.example");

  test("success: 302 to the destinations page naming the channel and the new destination", async () => {
    const res = await g.app.inject({
      method: "GET",
      url: await approvedCallback(),
      headers: { cookie: owner, accept: browser },
    });
    expect(res.statusCode).toBe(302);
    const to = location(res);
    expect(to.pathname).toBe("/destinations");
    expect(to.searchParams.get("connected")).toBe("shopify");
    const destinations = (
      await g.app.inject({ method: "GET", url: "/api/destinations", headers: { cookie: owner } })
    ).json<DestinationList>().items;
    expect(destinations.map((d) => d.id)).toContain(to.searchParams.get("destination"));
  });

  test("a JSON client of the same callback still gets the JSON answer", async () => {
    const res = await g.app.inject({
      method: "GET",
      url: await approvedCallback(),
      headers: { cookie: owner, accept: "application/json" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ destination: { channel: "shopify" }, reconnected: true });
  });

  test("failures: an expired session, a spent state, an unknown channel each come back as connectError with the reason", async () => {
    const url = await approvedCallback();
    const expired = await g.app.inject({ method: "GET", url, headers: { accept: browser } });
    expect(expired.statusCode).toBe(302);
    expect(location(expired).pathname).toBe("/destinations");
    expect(location(expired).searchParams.get("connectError")).toMatch(/sign in first/);

    expect(
      (await g.app.inject({ method: "GET", url, headers: { cookie: owner, accept: browser } }))
        .statusCode,
    ).toBe(302);
    const spent = await g.app.inject({
      method: "GET",
      url,
      headers: { cookie: owner, accept: browser },
    });
    expect(location(spent).searchParams.get("connectError")).toMatch(
      /unknown, expired, already used/,
    );
    // The channel whose form shows the reason.
    expect(location(spent).searchParams.get("channel")).toBe("shopify");

    const unknown = await g.app.inject({
      method: "GET",
      url: "/api/integrations/myspace/callback?state=x",
      headers: { cookie: owner, accept: browser },
    });
    expect(location(unknown).searchParams.get("connectError")).toMatch(
      /no integration for channel "myspace"/,
    );
    expect(location(unknown).searchParams.has("channel")).toBe(false);

    // The same failures for a JSON client are JSON errors, as before.
    const json = await g.app.inject({ method: "GET", url, headers: { cookie: owner } });
    expect(json.statusCode).toBe(403);
    expect(errorOf(json)).toMatch(/already used/);
  });

  test("a refused connect request sends a browser back to the form with the reason; JSON clients keep the 422", async () => {
    const url = "/api/integrations/shopify/connect?shop=harbour%20shop";
    const res = await g.app.inject({
      method: "GET",
      url,
      headers: { cookie: owner, accept: browser },
    });
    expect(res.statusCode).toBe(302);
    const to = location(res);
    expect(to.pathname).toBe("/destinations");
    expect(to.searchParams.get("channel")).toBe("shopify");
    expect(to.searchParams.get("connectError")).toBe(
      "querystring/shop must be the shop's myshopify.com domain, e.g. acme.myshopify.com",
    );
    // A member may not connect: the reason comes back the same way.
    const member = await login(g.app, o.member.email, o.member.password);
    const refused = await g.app.inject({
      method: "GET",
      url: "/api/integrations/shopify/connect?shop=harbour.myshopify.com",
      headers: { cookie: member, accept: browser },
    });
    expect(location(refused).searchParams.get("connectError")).toMatch(/owner/);

    const json = await g.app.inject({ method: "GET", url, headers: { cookie: owner } });
    expect(json.statusCode).toBe(422);
    expect(errorOf(json)).toMatch(/^querystring\/shop must be/);
  });
});
