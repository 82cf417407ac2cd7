// Amazon's dry run: the product's checks, then Amazon's verdict through putListingsItem with
// mode=VALIDATION_PREVIEW, which stores nothing.
import { product } from "./fixtures.js";
import { useAmazon } from "./amazon-seller.js";
import { stringMatching } from "@catalog/test-support/matchers";

const amazon = useAmazon();
const { connectSeller, preflight } = amazon;

test("a product Amazon accepts: VALIDATION_PREVIEW answers VALID and nothing is listed", async () => {
  const dest = await connectSeller();
  expect(await preflight(dest, product({ variants: [] }))).toEqual([]);
  expect(await preflight(dest, product())).toEqual([]);
  const { listings, counts } = amazon.standin.store(dest.storeId);
  expect(listings).toEqual([]);
  expect(counts).toMatchObject({ create: 0, update: 0 });
  expect(counts.requests).toBeGreaterThan(0);
});

test("Amazon's issues per attribute, the product type's required attributes, and the product's own checks without a call", async () => {
  const dest = await connectSeller("DRINKING_CUP");
  expect(await preflight(dest, product({ variants: [], attributes: {} }))).toEqual([
    {
      field: "attributes.material",
      message: stringMatching(/DRINKING_CUP requires material/),
    },
  ]);
  const home = await connectSeller();
  expect(await preflight(home, product({ variants: [], priceAmount: "0.0000" }))).toEqual([
    { field: "attributes.purchasable_offer", message: stringMatching(/^The price must be/) },
  ]);
  amazon.standin.setFault(home.storeId, {
    kind: "invalid",
    message: "'brand' value 'Acme' is not an approved brand.",
    field: "brand",
    times: 1,
  });
  expect(await preflight(home, product({ variants: [] }))).toEqual([
    { field: "attributes.brand", message: "'brand' value 'Acme' is not an approved brand." },
  ]);

  const before = amazon.standin.store(home.storeId).counts.requests;
  expect(await preflight(home, product({ sku: null, title: "" }))).toEqual([
    { field: "title", message: "title is required" },
    { field: "sku", message: "sku is required: Amazon keys every listing by SKU" },
  ]);
  expect(amazon.standin.store(home.storeId).counts.requests).toBe(before);
  expect(amazon.standin.store(home.storeId).listings).toEqual([]);
});

test("settings and credentials: missing settings are named without a call; without a token the store must be connected again", async () => {
  const dest = await connectSeller();
  expect(
    await preflight(
      { ...dest, settings: { sellerId: dest.storeId, marketplaceId: "ATVPDKIKX0DER" } },
      product(),
    ),
  ).toEqual([{ field: "settings.productType", message: "productType is required" }]);
  expect(
    await preflight(
      { ...dest, settings: { ...dest.settings, productType: "NO_SUCH_TYPE" } },
      product(),
    ),
  ).toEqual([
    {
      field: "settings.productType",
      message: stringMatching(/NO_SUCH_TYPE is not an Amazon product type/),
    },
  ]);
  expect(await preflight({ ...dest, credentials: {} }, product())).toEqual([
    {
      field: "destination",
      message: stringMatching(/needs the store's credentials.*connect the store again$/),
    },
  ]);
  // An expired access token is replaced from the refresh token for the check (and not stored).
  expect(
    await preflight(
      { ...dest, credentials: { ...dest.credentials, expiresAt: Date.now() - 1 } },
      product({ variants: [] }),
    ),
  ).toEqual([]);
});

test("a throttled preview is sent again after Amazon's wait; one throttled throughout says the check could not be made", async () => {
  const dest = await connectSeller();
  await preflight(dest, product({ variants: [] }));
  const before = amazon.standin.store(dest.storeId).counts.requests;
  amazon.standin.setFault(dest.storeId, { kind: "throttle", times: 1 });
  expect(await preflight(dest, product({ variants: [] }))).toEqual([]);
  // The definition is cached: the throttled preview and the one sent again.
  expect(amazon.standin.store(dest.storeId).counts.requests - before).toBe(2);

  amazon.standin.setFault(dest.storeId, { kind: "throttle" });
  expect(
    await amazon.channel.preflight({
      product: product({ variants: [] }),
      destination: dest,
      signal: AbortSignal.timeout(10_000),
    }),
  ).toEqual([
    {
      field: "destination",
      message: stringMatching(/^Amazon could not check it now: .*429/),
    },
  ]);
}, 20_000);
