// The product type check: the attributes are validated against the whole definition schema
// (conditionals and value constraints included) before any listing request, a publish giving up
// on the first SKU's problems and a dry run listing them all; the stand-in's own review agrees.
import { GiveUpChannelError, type PublishableProduct } from "../src/index.js";
import { listingItems, type AmazonListingItem } from "../src/amazon/amazon-attributes.js";
import {
  compileProductTypeSchema,
  fitToProductType,
  productTypeProblems,
} from "../src/amazon/amazon-product-type.js";
import { amazonSettings } from "../src/amazon/amazon-settings.js";
import { PRODUCT_TYPES } from "../src/amazon/amazon-standin-product-types.js";
import { failureOf, withVariants } from "./channel-fixtures.js";
import { product, publishInput } from "./fixtures.js";
import { useAmazon } from "./amazon-seller.js";
import { stringMatching } from "@catalog/test-support/matchers";

const amazon = useAmazon();
const { connectSeller, preflight } = amazon;
const AMAZON_META_SCHEMA =
  "https://schemas.amazon.com/selling-partners/definitions/product-types/meta-schema/v1";

/** What a call throws (to match its fields). */
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
};
const requests = (dest: { storeId: string }) => amazon.standin.store(dest.storeId).counts.requests;

/**
 * A seller whose product type definition is cached already (a dry run of a good product fetched
 * it), so a give-up before the listing calls makes no request at all.
 */
async function readySeller(productType = "HOME") {
  const dest = await connectSeller(productType);
  expect(
    await preflight(dest, product({ variants: [], attributes: { material: "stoneware" } })),
  ).toEqual([]);
  return dest;
}

/**
 * A colour family whose second variant has no Color: its child SKU lacks the color the SIZE/COLOR
 * theme asks for.
 */
const colourless = (): PublishableProduct => {
  const base = product();
  return {
    ...base,
    variants: [
      {
        sku: `${base.sku}-S-BL`,
        title: "Small blue",
        priceAmount: "19.9900",
        options: { Size: "S", Color: "Blue" },
        gtin: null,
      },
      {
        sku: `${base.sku}-L`,
        title: "Large",
        priceAmount: "24.5000",
        options: { Size: "L" },
        gtin: null,
      },
    ],
  };
};

test("a conditional requirement: a child of a COLOR theme without its color gives up naming color before any listing request, as Amazon's review would", async () => {
  const dest = await readySeller();
  const family = colourless();
  const before = requests(dest);
  const error = await failureOf(amazon.channel.adapter.publish(publishInput(dest, family)));
  expect(error).toBeInstanceOf(GiveUpChannelError);
  expect(error).toMatchObject({
    kind: "validation",
    field: "color",
    channelMessage:
      "HOME requires color when parentage_level is child and variation_theme name is one of COLOR, SIZE/COLOR, COLOR/SIZE",
  });
  expect((error as Error).message).toContain(`SKU ${family.sku}-L:`);
  expect(requests(dest)).toBe(before);
  expect(amazon.standin.store(dest.storeId).listings).toEqual([]);

  // The dry run names it too, for the one SKU it concerns, still without a preview.
  expect(await preflight(dest, family)).toEqual([
    {
      field: "attributes.color",
      message: stringMatching(new RegExp(`^HOME requires color when .*\\(SKU ${family.sku}-L\\)$`)),
    },
  ]);
  expect(requests(dest)).toBe(before);

  // Amazon's side (the stand-in's review) refuses the same child for the same attribute, and takes
  // it with its color.
  const settings = amazonSettings(dest.settings);
  const child = listingItems(family, settings).find((i) => i.sku === `${family.sku}-L`)!;
  const preview = async (attributes: Record<string, unknown>) => {
    const url = `${amazon.standin.url}/listings/2021-08-01/items/${dest.storeId}/${encodeURIComponent(child.sku)}?${new URLSearchParams({ marketplaceIds: settings.marketplaceId, mode: "VALIDATION_PREVIEW", includedData: "issues" }).toString()}`;
    const answer = await fetch(url, {
      method: "PUT",
      body: JSON.stringify({ productType: "HOME", requirements: "LISTING", attributes }),
      headers: {
        "x-amz-access-token": String(dest.credentials.accessToken),
        "content-type": "application/json",
      },
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as {
      status: string;
      issues: { severity: string; attributeNames: string[] }[];
    };
  };
  const refused = await preview(child.attributes);
  expect(refused.status).toBe("INVALID");
  expect(refused.issues.filter((i) => i.severity === "ERROR").map((i) => i.attributeNames)).toEqual(
    [["color"]],
  );
  const colour = [
    { value: "Red", language_tag: settings.languageTag, marketplace_id: settings.marketplaceId },
  ];
  expect(await preview({ ...child.attributes, color: colour })).toMatchObject({ status: "VALID" });
});

test("value constraints (an enum, a maximum length) are caught before the call; the dry run lists every problem, the publish names the first", async () => {
  const dest = await readySeller();
  // A "Pattern" option makes the variation theme PATTERN, which HOME does not offer; the brand is
  // over HOME's 100 characters.
  const odd = product({
    brand: "Acme ".repeat(25).trim(),
    variants: [
      { sku: "ODD-1", title: "Striped", priceAmount: "19.9900", options: { Pattern: "striped" } },
    ],
  });
  const before = requests(dest);
  const error = await failureOf(amazon.channel.adapter.publish(publishInput(dest, odd)));
  expect(error).toMatchObject({
    kind: "validation",
    field: "brand",
    channelMessage:
      "brand: must NOT have more than 100 characters; variation_theme.name: must be one of COLOR, SIZE, SIZE/COLOR, COLOR/SIZE",
  });
  expect(await preflight(dest, odd)).toEqual([
    { field: "attributes.brand", message: "brand: must NOT have more than 100 characters" },
    {
      field: "attributes.variation_theme",
      message: "variation_theme.name: must be one of COLOR, SIZE, SIZE/COLOR, COLOR/SIZE",
    },
  ]);
  expect(requests(dest)).toBe(before);
  expect(amazon.standin.store(dest.storeId).listings).toEqual([]);

  // An item name over 200 characters (the builder clips titles, so the item is made here) against
  // the same schema.
  const home = compileProductTypeSchema(PRODUCT_TYPES.HOME!.schema);
  const [single] = listingItems(product({ variants: [] }), amazonSettings(dest.settings));
  const long: AmazonListingItem = {
    ...single!,
    attributes: {
      ...single!.attributes,
      item_name: [
        { value: "x".repeat(201), language_tag: "en_US", marketplace_id: "ATVPDKIKX0DER" },
      ],
    },
  };
  expect(thrown(() => fitToProductType([long], home, "HOME"))).toMatchObject({
    field: "item_name",
    channelMessage: "item_name: must NOT have more than 200 characters",
  });
});

test("a parent SKU is not asked for the offer the product type requires of what can be bought", async () => {
  const home = compileProductTypeSchema(PRODUCT_TYPES.HOME!.schema);
  const [parent] = listingItems(
    withVariants(),
    amazonSettings({ sellerId: "A1", marketplaceId: "ATVPDKIKX0DER", productType: "HOME" }),
  );
  expect(parent).toMatchObject({ role: "parent" });
  expect(parent!.attributes.purchasable_offer).toBeUndefined();
  expect(productTypeProblems([parent!], home, "HOME")).toEqual([]);
  // The same attributes as a SKU that can be bought lack the offer.
  expect(
    productTypeProblems([{ ...parent!, role: "single" }], home, "HOME").map((p) => p.attribute),
  ).toEqual(["purchasable_offer", "fulfillment_availability"]);

  // Published: the parent goes without an offer, its children with theirs.
  const dest = await connectSeller();
  const family = withVariants();
  await amazon.channel.adapter.publish(publishInput(dest, family));
  const [listing] = amazon.standin.store(dest.storeId).listings;
  expect(listing).toMatchObject({
    sku: family.sku,
    variantSkus: family.variants.map((v) => v.sku),
  });
});

test("a schema under Amazon's meta-schema, with its own keywords, compiles and is applied whole; one that does not compile falls back to its required list", () => {
  const text = (extra: Record<string, unknown>) => ({
    type: "array",
    editable: true,
    hidden: false,
    minItems: 1,
    maxUniqueItems: 1,
    selectors: ["marketplace_id", "language_tag"],
    items: {
      type: "object",
      required: ["value"],
      properties: {
        value: { type: "string", ...extra },
        marketplace_id: { $ref: "#/$defs/marketplace_id" },
        language_tag: { type: "string" },
      },
    },
  });
  const document = {
    $schema: AMAZON_META_SCHEMA,
    $id: "https://schemas.amazon.com/selling-partners/definitions/product-types/schema/v1/MUG",
    $defs: {
      marketplace_id: { type: "string", editable: false, hidden: true, default: "ATVPDKIKX0DER" },
    },
    type: "object",
    required: ["item_name"],
    properties: {
      item_name: text({ maxLength: 50, maxUtf8ByteLength: 12 }),
      finish: text({ enum: ["matte", "glossy"], enumNames: ["Matte", "Glossy"] }),
      release_date: text({ format: "date" }),
      dishwasher_safe: {
        type: "array",
        items: { type: "object", properties: { value: { type: "boolean" } } },
      },
    },
    allOf: [
      {
        if: {
          required: ["dishwasher_safe"],
          properties: {
            dishwasher_safe: {
              contains: { required: ["value"], properties: { value: { const: true } } },
            },
          },
        },
        then: { required: ["finish"] },
      },
    ],
  };
  const mug = compileProductTypeSchema(document);
  expect(mug.validate).not.toBeNull();
  // Compiled again (a refreshed cache entry): the same $id is no conflict.
  expect(compileProductTypeSchema(structuredClone(document)).validate).not.toBeNull();

  const m = { marketplace_id: "ATVPDKIKX0DER" };
  const item = (attributes: Record<string, Record<string, unknown>[]>): AmazonListingItem => ({
    sku: "MUG-1",
    role: "single",
    attributes,
  });
  const good = item({
    item_name: [{ value: "Mug", ...m }],
    finish: [{ value: "matte", ...m }],
    release_date: [{ value: "2024-05-01", ...m }],
    dishwasher_safe: [{ value: true }],
    unknown: [{ value: "left out" }],
  });
  expect(fitToProductType([good], mug, "MUG")[0]!.attributes).not.toHaveProperty("unknown");

  const problems = productTypeProblems(
    [
      item({
        item_name: [{ value: "Tasse à café", ...m }], // 12 characters, 14 bytes
        finish: [{ value: "shiny", ...m }],
        release_date: [{ value: "May 2024", ...m }],
      }),
    ],
    mug,
    "MUG",
  );
  expect(problems.map((p) => [p.attribute, p.message])).toEqual([
    ["item_name", "item_name: must NOT be longer than 12 bytes (UTF-8)"],
    ["finish", "finish: must be one of matte, glossy"],
    ["release_date", 'release_date: must match format "date"'],
  ]);
  expect(
    thrown(() =>
      fitToProductType(
        [item({ item_name: [{ value: "Mug", ...m }], dishwasher_safe: [{ value: true }] })],
        mug,
        "MUG",
      ),
    ),
  ).toMatchObject({
    field: "finish",
    channelMessage: "MUG requires finish when dishwasher_safe is true",
  });

  // A $ref to nowhere: no validator, and the required list alone still names what is missing.
  const broken = compileProductTypeSchema({
    ...document,
    properties: { ...document.properties, finish: { $ref: "#/$defs/nowhere" } },
  });
  expect(broken.validate).toBeNull();
  expect(
    thrown(() => fitToProductType([item({ finish: [{ value: "shiny", ...m }] })], broken, "MUG")),
  ).toMatchObject({
    field: "item_name",
    channelMessage: "MUG requires item_name, which the product does not give",
  });
  expect(
    fitToProductType(
      [item({ item_name: [{ value: "x".repeat(80) }], finish: [{ value: "shiny" }] })],
      broken,
      "MUG",
    ),
  ).toHaveLength(1);
});

test("a product that meets every requirement passes: published and previewed without a problem", async () => {
  const dest = await readySeller();
  const family = withVariants();
  expect(await preflight(dest, family)).toEqual([]);
  await amazon.channel.adapter.publish(publishInput(dest, family));
  const [listing] = amazon.standin.store(dest.storeId).listings;
  expect(listing).toMatchObject({
    sku: family.sku,
    variantSkus: family.variants.map((v) => v.sku),
  });
  expect(amazon.standin.store(dest.storeId).counts).toMatchObject({ create: 1 });

  const cup = await connectSeller("DRINKING_CUP");
  await amazon.channel.adapter.publish(
    publishInput(cup, product({ variants: [], attributes: { material: "stoneware" } })),
  );
  expect(amazon.standin.store(cup.storeId).listings).toHaveLength(1);
});
