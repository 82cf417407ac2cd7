import { Type } from "typebox";
import { PageQuerySchema } from "../../schemas/common.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const MoneySchema = Type.Object(
  {
    amount: Type.String({ pattern: "^\\d{1,15}(\\.\\d{1,4})?$", description: "Decimal as a string, e.g. \"19.99\"" }),
    currency: Type.String({ pattern: "^[A-Z]{3}$", description: "ISO-4217 code" }),
  },
  { additionalProperties: false },
);

const Url = Type.String({ format: "uri", maxLength: 2048 });

export const VariantSchema = Type.Object({
  sku: Nullable(Type.String({ maxLength: 255 })),
  title: Nullable(Type.String({ maxLength: 500 })),
  price: Nullable(MoneySchema),
  options: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 255 })),
  gtin: Nullable(Type.String({ maxLength: 32 })),
  availability: Nullable(Type.String({ maxLength: 64 })),
  image: Nullable(Url),
});

/** Fields a client may edit; every one optional in a PATCH. */
const editable = {
  title: Type.String({ minLength: 1, maxLength: 500 }),
  sku: Nullable(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()], {
    description: "HTML cleaned against an allow-list (paragraphs, line breaks, headings, lists, tables, bold, italic, http(s) and mailto " +
      "links; no scripts, styles, event handlers, images or other attributes). Sent plain text (no HTML tag in it) is stored escaped, " +
      "each blank-line-separated paragraph a <p> and each line break a <br />. The same form on every write (edits and imports) and every read.",
  }),
  price: Nullable(MoneySchema),
  images: Type.Array(Url, { maxItems: 100 }),
  brand: Nullable(Type.String({ maxLength: 255 })),
  gtin: Nullable(Type.String({ pattern: "^\\d{8,14}$" })),
  mpn: Nullable(Type.String({ maxLength: 255 })),
  availability: Nullable(Type.String({ maxLength: 64, description: "schema.org ItemAvailability name, e.g. InStock" })),
  variants: Type.Array(VariantSchema, { maxItems: 1000 }),
  attributes: Type.Record(Type.String({ maxLength: 100 }), Type.Unknown()),
  sourceUrl: Nullable(Url),
};

/** The catalog fields of a product, as an import previews them before they are stored. */
export const ProductFieldsSchema = Type.Object(editable);

export const ProductPatchSchema = Type.Object(
  {
    ...Object.fromEntries(Object.entries(editable).map(([k, s]) => [k, Type.Optional(s)])) as {
      [K in keyof typeof editable]: ReturnType<typeof Type.Optional<(typeof editable)[K]>>;
    },
    version: Type.Optional(Type.Integer({ minimum: 1, description: "If given, the edit applies only to this version (else 409)" })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ProductSchema = Type.Object({
  id: Type.String(),
  ...editable,
  title: Type.String(),
  source: Type.String(),
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time" }),
  version: Type.Integer(),
});

export const ListingSchema = Type.Object({
  destinationAccountId: Type.String(),
  channel: Type.String(),
  status: Type.String(),
  remoteId: Nullable(Type.String()),
  remoteUrl: Nullable(Type.String()),
  lastSyncedAt: Nullable(Type.String({ format: "date-time" })),
  lastError: Nullable(Type.String()),
  channelReports: Type.Array(Type.Object({
    sku: Type.String({ description: "The listing's own SKU, or one of its variants'" }),
    status: Type.Union([Type.Array(Type.String()), Type.Null()], { description: "The listing's states at the channel as it names them (Amazon: BUYABLE, DISCOVERABLE, DELETED; what is absent is not the case); null before the first status report" }),
    issues: Type.Union([Type.Object({
      severities: Type.Array(Type.String(), { description: "NONE, WARNING, ERROR" }),
      enforcementActions: Type.Array(Type.String(), { description: "What the channel did about them (Amazon: LISTING_SUPPRESSED, SEARCH_SUPPRESSED, ...)" }),
    }), Type.Null()], { description: "null before the first issues report" }),
    reportedAt: Type.String({ format: "date-time", description: "When the newest reported change happened at the channel" }),
  }), { description: "What the channel reported about the listing on its own, after publishing (Amazon's listing notifications, when relayed); empty for channels that send none" }),
});

export const ProductDetailSchema = Type.Object({ ...ProductSchema.properties, listings: Type.Array(ListingSchema) });

export const ListingStatusSchema = Type.Object({
  destinationAccountId: Type.String(),
  channel: Type.String(),
  status: Type.String({ description: "queued, publishing, published or failed" }),
});

export const ProductListItemSchema = Type.Object({
  ...ProductSchema.properties,
  listings: Type.Array(ListingStatusSchema, { description: "The product's listing status on each destination it was published to" }),
});

export const ProductListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    q: Type.Optional(Type.String({ maxLength: 200, description: "Matches title or SKU, any case, as a substring" })),
    sourceUrl: Type.Optional(Type.String({ maxLength: 2048, description: "Only the products imported from this page (exact address): is a page in the catalog already?" })),
  },
  { additionalProperties: false },
);

export const HistoryEntrySchema = Type.Object({
  id: Type.String(),
  at: Type.String({ format: "date-time" }),
  actor: Type.Object({ type: Type.String(), id: Nullable(Type.String()) }),
  action: Type.String(),
  changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() })),
});

export const ProductParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
