import { Type } from "typebox";
import { PageQuerySchema } from "../../schemas/common.js";
import { ProductSchema } from "../../schemas/product.js";
import { WatchSchema } from "../../schemas/watch.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const ListingSchema = Type.Object({
  destinationAccountId: Type.String(),
  channel: Type.String(),
  status: Type.String(),
  remoteId: Nullable(Type.String()),
  remoteUrl: Nullable(Type.String()),
  lastSyncedAt: Nullable(Type.String({ format: "date-time" })),
  lastError: Nullable(Type.String()),
  channelReports: Type.Array(
    Type.Object({
      sku: Type.String({ description: "The listing's own SKU, or one of its variants'" }),
      status: Type.Union([Type.Array(Type.String()), Type.Null()], {
        description:
          "The listing's states at the channel as it names them (Amazon: BUYABLE, DISCOVERABLE, DELETED; what is absent is not the case); null before the first status report",
      }),
      issues: Type.Union(
        [
          Type.Object({
            severities: Type.Array(Type.String(), { description: "NONE, WARNING, ERROR" }),
            enforcementActions: Type.Array(Type.String(), {
              description:
                "What the channel did about them (Amazon: LISTING_SUPPRESSED, SEARCH_SUPPRESSED, ...)",
            }),
          }),
          Type.Null(),
        ],
        { description: "null before the first issues report" },
      ),
      reportedAt: Type.String({
        format: "date-time",
        description: "When the newest reported change happened at the channel",
      }),
    }),
    {
      description:
        "What the channel reported about the listing on its own, after publishing (Amazon's listing notifications, when relayed); empty for channels that send none",
    },
  ),
});

export const ProductDetailSchema = Type.Object({
  ...ProductSchema.properties,
  listings: Type.Array(ListingSchema),
  watch: WatchSchema,
});

export const ListingStatusSchema = Type.Object({
  destinationAccountId: Type.String(),
  channel: Type.String(),
  status: Type.String({ description: "queued, publishing, published or failed" }),
});

export const ProductListItemSchema = Type.Object({
  ...ProductSchema.properties,
  listings: Type.Array(ListingStatusSchema, {
    description: "The product's listing status on each destination it was published to",
  }),
});

export const ProductListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: "Matches title or SKU, any case, as a substring",
      }),
    ),
    sourceUrl: Type.Optional(
      Type.String({
        maxLength: 2048,
        description:
          "Only the products imported from this page (exact address): is a page in the catalog already?",
      }),
    ),
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
