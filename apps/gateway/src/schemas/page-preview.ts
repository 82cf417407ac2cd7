// What a page the user is on reads as, previewed (POST /api/extension/ingest with persist: false):
// answered by the extension's route, built by importing/page-preview.ts.
import { Type } from "typebox";
import { DroppedImagesSchema } from "./import.js";
import { MoneySchema, ProductFieldsSchema } from "./product.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** A listing preview lists at most this many products of the page. */
export const MAX_LISTING_ITEMS = 200;

const Preview = { action: Type.Literal("preview") };

export const ListingItemSchema = Type.Object({
  url: Type.String(),
  title: Nullable(Type.String()),
  price: Nullable(MoneySchema),
  image: Nullable(Type.String()),
  inCatalog: Nullable(
    Type.Object(
      { productId: Type.String(), title: Type.String() },
      { description: "The org's product imported from this page" },
    ),
  ),
});

export const ExtensionPreviewSchema = Type.Union(
  [
    Type.Object(
      {
        ...Preview,
        page: Type.Literal("product"),
        wouldBe: Type.Enum(["created", "updated", "unchanged"]),
        match: Nullable(
          Type.Object(
            {
              productId: Type.String(),
              title: Type.String(),
              sku: Nullable(Type.String()),
              by: Type.Enum(["sku", "sourceUrl"]),
            },
            {
              description:
                "The catalog product a save would update: the page is in the catalog already",
            },
          ),
        ),
        changes: Type.Record(
          Type.String(),
          Type.Object({ from: Type.Unknown(), to: Type.Unknown() }),
          {
            description: "Field-level diff against the matched product (every field for a new one)",
          },
        ),
        product: ProductFieldsSchema,
        droppedImages: Type.Optional(DroppedImagesSchema),
      },
      { description: "A product page: what saving it would store" },
    ),
    Type.Object(
      {
        ...Preview,
        page: Type.Literal("listing"),
        listing: Type.Object({
          items: Type.Array(ListingItemSchema, {
            description: `In page order, at most ${MAX_LISTING_ITEMS}`,
          }),
          total: Type.Integer({ minimum: 0, description: "How many products the page lists" }),
          truncated: Type.Boolean(),
        }),
        message: Type.String(),
      },
      {
        description:
          "A category or search page: the products it lists (import them with POST /api/extension/imports)",
      },
    ),
    Type.Object(
      { ...Preview, page: Type.Literal("blocked"), message: Type.String() },
      {
        description:
          "A bot check (captcha, challenge) in front of the shop: the user passes it in the page, then tries again",
      },
    ),
    Type.Object(
      { ...Preview, page: Type.Literal("unknown"), message: Type.String() },
      {
        description:
          "No product and no list of products on the page; a save with `product.title` still works",
      },
    ),
  ],
  { description: "What the page is (persist: false), discriminated by `page`" },
);
