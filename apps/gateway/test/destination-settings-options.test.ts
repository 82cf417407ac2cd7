import {
  createDestination,
  loadDestinationTarget,
  newKeyringSpec,
  parseKeyring,
} from "@catalog/db";
import { startEbayStandin, type ChannelStandin } from "@catalog/channels/standins";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import type { SettingsOptions } from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin } from "./publishing-fixtures.js";

const keys = newKeyringSpec();
let standin: ChannelStandin;
let gw: Gateway;
let t: TestOrg;
let member: string;
let owner: string;

beforeAll(async () => {
  standin = await startEbayStandin();
  gw = await startGateway({ ...standin.env, CREDENTIALS_KEYS: keys });
  t = await createTestOrg(gw.db, "settings-options");
  member = await login(gw.app, t.member.email, t.member.password);
  owner = await login(gw.app, t.owner.email, t.owner.password);
});
afterAll(async () => {
  await gw.close();
  await standin.close();
});
afterEach(() => standin.clearFaults());

/** A seller signed in on the stand-in's authorize page: their tokens and store id. */
async function sellerToken(): Promise<{
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  store: string;
}> {
  const authorize = new URL(standin.env.EBAY_AUTH_URL!);
  authorize.search = new URLSearchParams({
    client_id: standin.env.EBAY_CLIENT_ID!,
    redirect_uri: standin.env.EBAY_RU_NAME!,
    response_type: "code",
    state: "s",
  }).toString();
  const back = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location")!);
  const basic = Buffer.from(
    `${standin.env.EBAY_CLIENT_ID}:${standin.env.EBAY_CLIENT_SECRET}`,
  ).toString("base64");
  const token = await fetch(`${standin.url}/identity/v1/oauth2/token`, {
    method: "POST",
    headers: { authorization: `Basic ${basic}` },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      redirect_uri: standin.env.EBAY_RU_NAME!,
    }),
  });
  const tokens = (await token.json()) as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
  };
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: Date.now() + tokens.expires_in * 1000,
    store: standin.storeIds().at(-1)!,
  };
}

/** An eBay store; `renewable` keeps the refresh token and expiry eBay's connect gives. */
async function ebayStore(
  orgId = t.org.id,
  settings: Record<string, unknown> = {},
  renewable = false,
) {
  const { store, ...tokens } = await sellerToken();
  const d = await createDestination(gw.db, parseKeyring(keys), {
    orgId,
    channel: "ebay",
    name: "Harbour eBay",
    baseUrl: standin.url,
    credentials: renewable ? tokens : { accessToken: tokens.accessToken },
    settings,
  });
  return { id: d.id, store };
}

const accessTokenOf = async (id: string) =>
  (await loadDestinationTarget(gw.db, parseKeyring(keys), id))!.credentials.accessToken;

const options = (query: Record<string, string>, cookie = member) =>
  gw.app.inject({
    method: "GET",
    url: `/api/destinations/settings-options?${new URLSearchParams(query).toString()}`,
    headers: { cookie },
  });

/** A refusal's status and words. */
const said = (res: Awaited<ReturnType<typeof options>>) => ({
  status: res.statusCode,
  error: errorOf(res),
});

test("a member reads the seller's policies, locations and categories in the contract's words", async () => {
  const { id } = await ebayStore();
  const payment = await options({ id, field: "paymentPolicyId" });
  expect(payment.statusCode).toBe(200);
  expect(payment.json<SettingsOptions>()).toEqual({
    field: "paymentPolicyId",
    choices: "list",
    options: [
      { value: "pay-1", label: "Immediate payment", detail: "Card or PayPal, paid at once" },
      { value: "pay-2", label: "Invoice within 3 days", detail: "For bulk buyers" },
    ],
  });
  // The form's unsaved marketplace: that site's policies (none on EBAY_DE).
  const gb = await options({ id, field: "returnPolicyId", marketplaceId: "EBAY_GB" }, owner);
  expect(gb.json<SettingsOptions>().options.map((o) => o.value)).toEqual(["ret-gb-1"]);
  const de = await options({ id, field: "returnPolicyId", marketplaceId: "EBAY_DE" });
  expect(de.json<SettingsOptions>().options).toEqual([]);
  const locations = await options({ id, field: "merchantLocationKey" });
  expect(locations.json<SettingsOptions>().options.map((o) => o.value)).toEqual([
    "warehouse-1",
    "harbour-shop",
  ]);
  const categories = await options({ id, field: "categoryId", q: "mugs" });
  expect(categories.json<SettingsOptions>()).toEqual({
    field: "categoryId",
    choices: "search",
    options: [
      {
        value: "20667",
        label: "Mugs",
        detail: "Home & Garden > Kitchen, Dining & Bar > Dinnerware",
      },
    ],
  });
  expect(standin.violations).toEqual([]);
});

test("after eBay's access token has expired (two hours after connecting), the choices still come: the token is renewed and kept", async () => {
  const { id, store } = await ebayStore(t.org.id, {}, true);
  const before = await accessTokenOf(id);
  standin.expireAccessTokens(store);
  const payment = await options({ id, field: "paymentPolicyId" });
  expect(payment.statusCode).toBe(200);
  expect(payment.json<SettingsOptions>().options.map((o) => o.value)).toEqual(["pay-1", "pay-2"]);
  // The renewed token is stored, so the publish workers and the next form use it too.
  const after = await accessTokenOf(id);
  expect(after).not.toBe(before);
  const locations = await options({ id, field: "merchantLocationKey" });
  expect(locations.statusCode).toBe(200);
  expect(await accessTokenOf(id)).toBe(after);
});

test("an unknown setting, one typed in, or a search without words is 422 in words", async () => {
  const { id } = await ebayStore();
  expect(said(await options({ id, field: "colour" }))).toEqual({
    status: 422,
    error: "eBay has no setting named colour",
  });
  expect(said(await options({ id, field: "contentLanguage" }))).toEqual({
    status: 422,
    error: "eBay offers no choices for Listing language: type it in",
  });
  expect(said(await options({ id, field: "categoryId", q: " m " }))).toEqual({
    status: 422,
    error: "q: type at least 2 characters to search for a Category",
  });
  // A channel without choices (the generic stand-in) says so the same way.
  const plain = await connectStandin(gw, t.org.id, "Plain shop");
  expect((await options({ id: plain.id, field: "anything" })).statusCode).toBe(422);
});

test("another org's store, an unknown id or a malformed one is 404; no session is 401", async () => {
  const other = await createTestOrg(gw.db, "settings-options-other");
  const { id } = await ebayStore(other.org.id);
  for (const unknown of [id, "00000000-0000-4000-8000-000000000000", "nope"])
    expect((await options({ id: unknown, field: "paymentPolicyId" })).statusCode).toBe(404);
  const anonymous = await gw.app.inject({
    method: "GET",
    url: `/api/destinations/settings-options?id=${id}&field=paymentPolicyId`,
  });
  expect(anonymous.statusCode).toBe(401);
});

test("eBay's failures are 502 saying why, in a merchant's words", async () => {
  const { id, store } = await ebayStore();
  standin.setFault(store, { kind: "error", status: 500, times: 1 });
  expect(said(await options({ id, field: "paymentPolicyId" }))).toEqual({
    status: 502,
    error:
      "eBay did not list your payment policy choices: it answered with an error (500), try again later",
  });
  standin.setFault(store, { kind: "auth", times: 1 });
  expect(said(await options({ id, field: "merchantLocationKey" }))).toEqual({
    status: 502,
    error:
      "eBay did not list your inventory location choices: it refused this store's access, connect the store again",
  });
  standin.setFault(store, { kind: "throttle", retryAfterSeconds: 3, times: 1 });
  expect(said(await options({ id, field: "categoryId", q: "shoes" }))).toEqual({
    status: 502,
    error:
      "eBay did not list your category choices: it asked us to slow down, try again in a minute",
  });
});
