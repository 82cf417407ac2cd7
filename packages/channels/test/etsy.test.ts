import { sharedInput } from "@catalog/test-support/shared-inputs";
import { channelsConfigFrom } from "./channels-env.js";
import { startImageServer } from "./image-server.js";
import {
  ChannelWaitError,
  createChannelRegistry,
  RetryableChannelError,
  type DestinationTarget,
} from "../src/index.js";
import {
  sharedContractsDir,
  startEtsyStandin,
  type ChannelStandin,
} from "../src/standins/index.js";
import { demanding, failureOf, withVariants } from "./channel-fixtures.js";
import { product, publishInput } from "./fixtures.js";

let standin: ChannelStandin;
let images: Awaited<ReturnType<typeof startImageServer>>;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;
// The channel's published contract (../shared/contracts); with CI set, its absence fails the run.
const contracts = sharedInput({
  what: "the channels' contracts",
  path: sharedContractsDir(),
  expectedAt: "../shared/contracts (or SHARED_CONTRACTS_DIR)",
  tests: "Etsy's contract checks",
});
const redirectUri = "https://catalog.example/api/integrations/etsy/callback";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

beforeAll(async () => {
  standin = await startEtsyStandin();
  images = await startImageServer(PNG);
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 5_000 }).channel(
    "etsy",
  );
});
afterAll(async () => {
  await standin.close();
  await images.close();
});
afterEach(() => standin.clearFaults());

const pictures = (...n: number[]) => n.map((i) => images.url(`/${i}.png`));

/**
 * A shop connected through the stand-in's connect page (PKCE), with the settings a merchant sets.
 */
async function connectShop(): Promise<DestinationTarget & { storeId: string }> {
  const { url, pending } = await channel.connect!.start({ state: "st", redirectUri, query: {} });
  expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256");
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  const account = await channel.connect!.finish({
    params: Object.fromEntries(back.searchParams),
    pending,
    redirectUri,
    signal: AbortSignal.timeout(3_000),
  });
  expect(account.settings).toEqual({ shopId: account.externalId });
  return {
    id: "d",
    channel: "etsy",
    baseUrl: account.baseUrl,
    credentials: account.credentials,
    settings: { ...account.settings, taxonomyId: 1633, readinessStateId: 7 },
    storeId: account.externalId!,
  };
}

test("connect: a code without the PKCE verifier is refused; with it the shop is found from the token's user id", async () => {
  const { url, pending } = await channel.connect!.start({ state: "st", redirectUri, query: {} });
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  const params = Object.fromEntries(back.searchParams);
  expect(
    await failureOf(
      channel.connect!.finish({
        params,
        pending: { codeVerifier: "wrong-verifier" },
        redirectUri,
        signal: AbortSignal.timeout(3_000),
      }),
    ),
  ).toMatchObject({ status: 502 });
  expect(pending.codeVerifier).toMatch(/^[\w-]{43,128}$/);
  standin.denyNextAuthorization();
  const denied = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  expect(
    await failureOf(
      channel.connect!.finish({
        params: Object.fromEntries(denied.searchParams),
        pending,
        redirectUri,
        signal: AbortSignal.timeout(3_000),
      }),
    ),
  ).toMatchObject({ status: 403 });
});

test("a draft listing, its inventory and uploaded images; publishing again updates it and syncs only changed images", async () => {
  const dest = await connectShop();
  const saved: string[] = [];
  const prod = withVariants({ images: pictures(0, 1, 2) });
  const first = await channel.adapter.publish(
    publishInput(dest, prod, { saveRemoteId: async (id) => void saved.push(id) }),
  );
  expect(saved).toEqual([first.remoteId]);
  expect(first.remoteUrl).toBe(`https://www.etsy.com/listing/${first.remoteId}`);
  let [listing] = standin.store(dest.storeId).listings;
  expect(listing).toMatchObject({
    id: first.remoteId,
    imageCount: 3,
    variantSkus: prod.variants.map((v) => v.sku),
    priceAmount: "19.99",
  });
  await channel.adapter.publish(
    publishInput(
      dest,
      { ...prod, title: "Renamed", images: pictures(1, 2, 3) },
      { remoteId: first.remoteId },
    ),
  );
  [listing] = standin.store(dest.storeId).listings;
  expect(listing).toMatchObject({ title: "Renamed", imageCount: 3, version: 2 });
  expect(
    (listing!.raw as { images: { alt_text: string }[] }).images.map((i) => i.alt_text),
  ).toEqual(pictures(1, 2, 3));
  expect(standin.store(dest.storeId).counts).toMatchObject({ create: 1, update: 1 });
});

test("a failure after the listing was created is retried as an update of it, never a second listing", async () => {
  const dest = await connectShop();
  let remoteId: string | null = null;
  const prod = product({ variants: [], images: pictures(4, 5, 6, 7, 8, 9, 10, 11) });
  // The image step fails: the listing exists on Etsy already, and its id was saved.
  const error = await failureOf(
    channel.adapter.publish(
      publishInput(
        dest,
        { ...prod, images: [images.url("/missing.png")] },
        { saveRemoteId: async (id) => void (remoteId = id) },
      ),
    ),
  );
  expect(error).toMatchObject({ kind: "validation", field: "images" });
  expect(remoteId).not.toBeNull();
  await channel.adapter.publish(publishInput(dest, prod, { remoteId }));
  const { listings, counts } = standin.store(dest.storeId);
  expect(listings).toHaveLength(1);
  expect(counts.create).toBe(1);
  expect(listings[0]!.imageCount).toBe(8);
});

test("an image on a private address is never fetched: with production settings publishing gives up naming it", async () => {
  const dest = await connectShop();
  const production = createChannelRegistry(
    channelsConfigFrom({ ...standin.env, CHANNEL_PRIVATE_URLS: "false" }),
    { timeoutMs: 5_000 },
  ).channel("etsy");
  const inside = images.url("/0.png");
  const before = images.hits.length;
  const error = await failureOf(
    production.adapter.publish(publishInput(dest, product({ variants: [], images: [inside] }))),
  );
  expect(error).toMatchObject({ kind: "validation", field: "images" });
  expect((error as Error).message).toContain(`etsy: image ${inside} cannot be uploaded`);
  expect((error as Error).message).toMatch(/loopback/);
  expect(images.hits.length).toBe(before);
});

test("settings are checked before any call; Etsy's 10-image limit and 140-character titles", async () => {
  const dest = await connectShop();
  expect(channel.checkSettings({ shopId: "1" })).toEqual([
    expect.stringMatching(/^taxonomyId is required/),
    expect.stringMatching(/^readinessStateId is required/),
  ]);
  expect(channel.checkSettings({ shopId: "1", taxonomyId: "abc", readinessStateId: 7 })).toEqual([
    'taxonomyId must be a positive integer, not "abc"',
  ]);
  const before = standin.store(dest.storeId).counts.requests;
  const incomplete = await failureOf(
    channel.adapter.publish(
      publishInput({ ...dest, settings: { shopId: dest.settings.shopId } }, product()),
    ),
  );
  expect(incomplete).toMatchObject({ kind: "validation", field: "settings" });
  expect(standin.store(dest.storeId).counts.requests).toBe(before);
  await channel.adapter.publish(
    publishInput(
      dest,
      product({
        variants: [],
        title: "Tasse à café ☕ ".repeat(20),
        images: pictures(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
      }),
    ),
  );
  const [listing] = standin.store(dest.storeId).listings;
  expect(listing!.imageCount).toBe(10);
  expect([...listing!.title].length).toBeLessThanOrEqual(140);
});

test("a unicode title and a 20,000-character description, with variations and the most images Etsy takes", async () => {
  const dest = await connectShop();
  const prod = demanding({
    images: pictures(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
    variants: withVariants().variants,
  });
  await channel.adapter.publish(publishInput(dest, prod));
  const [listing] = standin.store(dest.storeId).listings;
  expect(listing).toMatchObject({ imageCount: 10, variantSkus: prod.variants.map((v) => v.sku) });
  expect([...listing!.title].length).toBeLessThanOrEqual(140);
  expect(listing!.title.startsWith("Tasse à café — 珈琲カップ ☕")).toBe(true);
  // Etsy takes plain text: the stored HTML's text, paragraphs on lines of their own.
  expect(listing!.description).toBe(
    Array(400).fill('Grès émaillé, 350 ml. 5 < 6 & "quotes"').join("\n\n"),
  );
});

test("Etsy's errors: 429 waits for retry-after, 5xx retries, 401 is auth, 400 gives up with Etsy's words", async () => {
  const dest = await connectShop();
  standin.setFault(dest.storeId, { kind: "throttle", retryAfterSeconds: 5, times: 1 });
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toEqual(
    expect.any(ChannelWaitError),
  );
  standin.setFault(dest.storeId, { kind: "error", status: 503, times: 1 });
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toBeInstanceOf(
    RetryableChannelError,
  );
  standin.setFault(dest.storeId, { kind: "auth", times: 1 });
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toMatchObject({
    kind: "auth",
    status: 401,
  });
  standin.setFault(dest.storeId, {
    kind: "invalid",
    message: "Title contains more than 3 words in all caps",
    times: 1,
  });
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toMatchObject({
    kind: "validation",
    channelMessage: "Title contains more than 3 words in all caps",
  });
});

test("refresh tokens rotate: the new one works, the old one is refused as auth", async () => {
  const dest = await connectShop();
  standin.expireAccessTokens(dest.storeId);
  expect(
    await failureOf(channel.adapter.publish(publishInput(dest, product({ images: [] })))),
  ).toMatchObject({ kind: "auth", status: 401 });
  const refreshed = await channel.adapter.refreshCredentials!(dest, AbortSignal.timeout(3_000));
  expect(refreshed.refreshToken).not.toBe(dest.credentials.refreshToken);
  await channel.adapter.publish(
    publishInput({ ...dest, credentials: refreshed }, product({ images: [] })),
  );
  expect(
    await failureOf(channel.adapter.refreshCredentials!(dest, AbortSignal.timeout(3_000))),
  ).toMatchObject({ kind: "auth" });
});

(contracts ? test : test.skip)(
  "contract: every request the adapter sent kept to Etsy's OpenAPI file; a broken one is caught",
  async () => {
    expect(standin.violations).toEqual([]);
    const dest = await connectShop();
    const res = await fetch(`${standin.url}/v3/application/shops/${dest.storeId}/listings`, {
      method: "POST",
      body: new URLSearchParams({ title: "x", quantity: "many" }),
      headers: {
        authorization: `Bearer ${String(dest.credentials.accessToken)}`,
        "x-api-key": standin.env.ETSY_CLIENT_ID!,
        "content-type": "application/x-www-form-urlencoded",
      },
    });
    expect(res.status).toBe(400);
    const [violation] = standin.violations.splice(0);
    expect(violation!.problems).toEqual(
      expect.arrayContaining([
        "body/quantity must be integer",
        "body must have required property 'price'",
      ]),
    );
  },
);
