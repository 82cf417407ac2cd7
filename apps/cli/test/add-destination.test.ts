// An operator adds stores from credentials they already hold; what is kept must publish.
import { randomUUID } from "node:crypto";
import { createChannelRegistry, type DestinationTarget } from "@catalog/channels";
import {
  startShopifyStandin,
  startWoocommerceStandin,
  type ShopifyStandin,
  type WoocommerceStandin,
} from "@catalog/channels/standins";
import { loadGatewayConfig } from "@catalog/config/gateway";
import {
  createDb,
  listDestinations,
  loadDestinationTarget,
  newKeyringSpec,
  parseKeyring,
  type Db,
} from "@catalog/db";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import { cli, SLOW } from "./run-cli.js";

const keys = newKeyringSpec("cli1");
let db: Db;
let shopify: ShopifyStandin;
let woo: WoocommerceStandin;
let env: Record<string, string>;
let owner: TestOrg;

beforeAll(async () => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
  [shopify, woo] = await Promise.all([startShopifyStandin(), startWoocommerceStandin()]);
  env = { ...shopify.env, ...woo.env, CREDENTIALS_KEYS: keys };
  owner = await createTestOrg(db, "cli-channels");
}, 30_000);
afterAll(async () => {
  await Promise.all([shopify.close(), woo.close(), db.$disconnect()]);
});

/** Publishes one product with the credentials the CLI kept, as a publish worker would. */
async function publishWith(destinationId: string): Promise<void> {
  const target = (await loadDestinationTarget(
    db,
    parseKeyring(keys),
    destinationId,
  )) as DestinationTarget;
  const adapter = createChannelRegistry(loadGatewayConfig(env).channels, {
    timeoutMs: 5_000,
  }).adapter(target.channel);
  const sku = `CLI-${randomUUID().slice(0, 8)}`;
  await adapter.publish({
    product: {
      id: `prod_${sku}`,
      sku,
      title: "Operator-added mug",
      description: "Holds 350 ml.",
      brand: "Acme",
      gtin: null,
      mpn: null,
      priceAmount: "12.5000",
      priceCurrency: "EUR",
      images: [],
      availability: "in_stock",
      variants: [],
      attributes: {},
    },
    destination: target,
    remoteId: null,
    signal: AbortSignal.timeout(10_000),
    idempotencyKey: sku,
    saveRemoteId: async () => {},
  });
}

test(
  "a Shopify custom-app token is checked on the shop, kept sealed and publishes",
  async () => {
    const shop = `cli-${randomUUID().slice(0, 8)}.myshopify.com`;
    const token = shopify.installCustomApp(shop);

    const wrong = await cli(
      ["add-destination", "--org", owner.org.id, "--channel", "shopify", "--shop", shop],
      "shpat_not-the-token\n",
      env,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(new RegExp(`${shop} refused the access token \\(401\\)`));
    expect(await listDestinations(db, owner.org.id)).toEqual([]);

    const added = await cli(
      [
        "add-destination",
        "--org",
        owner.org.name,
        "--channel",
        "shopify",
        "--shop",
        shop,
        "--json",
      ],
      `${token}\n`,
      env,
    );
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const { destination } = JSON.parse(added.stdout) as { destination: { id: string } };
    expect(destination).toMatchObject({ channel: "shopify", name: shop, health: "ok" });
    const row = await db.destinationAccount.findUniqueOrThrow({ where: { id: destination.id } });
    expect(JSON.stringify(row.credentials)).not.toContain(token);
    expect(row.credentialsKeyId).toBe("cli1");

    await publishWith(destination.id);
    expect(shopify.store(shop).listings.map((l) => l.title)).toEqual(["Operator-added mug"]);
    expect(shopify.violations).toEqual([]);
  },
  SLOW,
);

test(
  "WooCommerce keys are checked on the store; adding the same store again replaces its keys",
  async () => {
    const store = woo.createStore();
    const args = [
      "add-destination",
      "--org",
      owner.org.id,
      "--channel",
      "woocommerce",
      "--store-url",
      `${store.storeUrl}/`,
      "--consumer-key",
      store.consumerKey,
    ];

    const wrong = await cli(args, "cs_wrong\n", env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/refused the keys given \(401\)/);

    const first = await cli(args, `${store.consumerSecret}\n`, env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Added woocommerce destination/);
    const again = await cli(args, `${store.consumerSecret}\n`, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Replaced the credentials of woocommerce destination/);
    const stores = (await listDestinations(db, owner.org.id)).filter(
      (d) => d.channel === "woocommerce",
    );
    expect(stores).toHaveLength(1);

    await publishWith(stores[0]!.id);
    expect(woo.store(store.storeId).listings).toHaveLength(1);
  },
  SLOW,
);

test.each([
  [["--channel", "ebay"], /--channel must be shopify or woocommerce/, 2, {}],
  [["--channel", "shopify", "--shop", "evil.example"], /myshopify\.com domain/, 1, {}],
  [
    [
      "--channel",
      "woocommerce",
      "--store-url",
      "http://169.254.169.254/latest",
      "--consumer-key",
      "ck_x",
    ],
    /storeUrl must be/,
    1,
    { CHANNEL_PRIVATE_URLS: "false" },
  ],
  [
    ["--channel", "shopify", "--shop", "a.myshopify.com"],
    /needs CREDENTIALS_KEYS/,
    2,
    { CREDENTIALS_KEYS: "" },
  ],
])(
  "add-destination %j is refused with a clear message and adds nothing",
  async (args, message, code, extraEnv) => {
    const before = (await listDestinations(db, owner.org.id)).length;
    const result = await cli(["add-destination", "--org", owner.org.id, ...args], "secret\n", {
      ...env,
      ...(extraEnv as Record<string, string>),
    });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\s+at /);
    expect(result.code).toBe(code);
    expect(await listDestinations(db, owner.org.id)).toHaveLength(before);
  },
  SLOW,
);
