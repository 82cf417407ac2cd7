// The extension's routes' shapes. Schema modules import nothing but typebox and each other (the
// browser clients type-check against them through api-types.ts).
import { Type } from "typebox";
import { DroppedImagesSchema } from "../../schemas/import.js";
import { MoneySchema, ProductFieldsSchema, ProductPatchSchema, ProductSchema } from "../../schemas/product.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** The service's limit on the page's HTML (characters). */
export const MAX_HTML_CHARS = 5 * 1024 * 1024;
/** A listing preview lists at most this many products of the page. */
export const MAX_LISTING_ITEMS = 200;

export const ExtensionMeSchema = Type.Object({
  org: Type.Object({ id: Type.String(), name: Type.String() }),
  key: Type.Object({ id: Type.String(), name: Type.String(), prefix: Type.String({ description: "The 8 characters after csk_ that begin the key" }) }),
}, { description: "The org and key a pairing acts for" });

const { version: _version, ...productFields } = ProductPatchSchema.properties;
export const IngestBodySchema = Type.Object(
  {
    url: Type.String({ format: "uri", maxLength: 2048, description: "The page the user was on" }),
    html: Type.Optional(Type.String({ maxLength: MAX_HTML_CHARS, description: "The page as the user's browser rendered it (after its scripts ran)" })),
    product: Type.Optional(Type.Object(productFields, {
      additionalProperties: false,
      description: "Fields the extension gives, or the user corrected: they win over what the service reads in `html`. A null leaves the " +
        "field empty on a new product; an import never empties a field of a product already in the catalog.",
    })),
    persist: Type.Optional(Type.Boolean({
      description: "true (the default): create or update the product. false: store nothing and answer what the page is and what saving " +
        "would do. Saving after a preview sends the same `html` again with only the fields the user edited in `product`: what is stored " +
        "is then exactly what the preview showed plus those edits, and the other fields keep where they were read from.",
    })),
  },
  { additionalProperties: false },
);

export const IngestResultSchema = Type.Object({
  action: Type.Enum(["created", "updated"]),
  product: ProductSchema,
  droppedImages: Type.Optional(DroppedImagesSchema),
});

const Preview = { action: Type.Literal("preview") };

export const ListingItemSchema = Type.Object({
  url: Type.String(),
  title: Nullable(Type.String()),
  price: Nullable(MoneySchema),
  image: Nullable(Type.String()),
  inCatalog: Nullable(Type.Object({ productId: Type.String(), title: Type.String() }, { description: "The org's product imported from this page" })),
});

export const ExtensionPreviewSchema = Type.Union([
  Type.Object({
    ...Preview,
    page: Type.Literal("product"),
    wouldBe: Type.Enum(["created", "updated", "unchanged"]),
    match: Nullable(Type.Object({
      productId: Type.String(), title: Type.String(), sku: Nullable(Type.String()), by: Type.Enum(["sku", "sourceUrl"]),
    }, { description: "The catalog product a save would update: the page is in the catalog already" })),
    changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }), {
      description: "Field-level diff against the matched product (every field for a new one)",
    }),
    product: ProductFieldsSchema,
    droppedImages: Type.Optional(DroppedImagesSchema),
  }, { description: "A product page: what saving it would store" }),
  Type.Object({
    ...Preview,
    page: Type.Literal("listing"),
    listing: Type.Object({
      items: Type.Array(ListingItemSchema, { description: `In page order, at most ${MAX_LISTING_ITEMS}` }),
      total: Type.Integer({ minimum: 0, description: "How many products the page lists" }),
      truncated: Type.Boolean(),
    }),
    message: Type.String(),
  }, { description: "A category or search page: the products it lists (import them with POST /api/extension/imports)" }),
  Type.Object({ ...Preview, page: Type.Literal("blocked"), message: Type.String() }, {
    description: "A bot check (captcha, challenge) in front of the shop: the user passes it in the page, then tries again",
  }),
  Type.Object({ ...Preview, page: Type.Literal("unknown"), message: Type.String() }, {
    description: "No product and no list of products on the page; a save with `product.title` still works",
  }),
], { description: "What the page is (persist: false), discriminated by `page`" });
