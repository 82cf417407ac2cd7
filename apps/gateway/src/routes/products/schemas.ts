import { Type } from "typebox";
import {
  LISTING_FILTERS,
  LIST_SORTS,
  LOW_STOCK,
  SEARCH_COUNT_LIMIT,
  STOCK_FILTERS,
} from "@catalog/db";
import { ListSchema, PageQuerySchema } from "../../schemas/common.js";
import { ProductSchema } from "../../schemas/product.js";
import { WatchSchema } from "../../schemas/watch.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const LISTING_STATUSES =
  "queued, publishing, published, failed, ending (an end is queued or running; still live) or ended";

export const ListingSchema = Type.Object({
  destinationAccountId: Type.String(),
  channel: Type.String(),
  status: Type.String({ description: LISTING_STATUSES }),
  remoteId: Nullable(Type.String()),
  remoteUrl: Nullable(Type.String()),
  lastSyncedAt: Nullable(Type.String({ format: "date-time" })),
  lastError: Nullable(Type.String()),
  syncState: Type.Union([Type.Literal("inSync"), Type.Literal("pending"), Type.Literal("failed")], {
    description:
      "Automatic sync: whether the live listing carries the catalog's latest version of what its channel receives (pending: an update is queued or running; failed: the last update failed, see syncError)",
  }),
  syncError: Nullable(Type.String({ description: "Why the last automatic update failed" })),
  endedReason: Nullable(
    Type.String({ description: 'Why the listing ended ("out of stock", "unpublished by ...")' }),
  ),
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
  status: Type.String({ description: LISTING_STATUSES }),
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
    listing: Type.Optional(
      Type.Enum([...LISTING_FILTERS], {
        description:
          "Only the products with a listing in this state (on `destinationAccountId` when given, else on any destination); " +
          "`notListed`: the products with no listing there that is live or on its way (none, or only failed or ended ones)",
      }),
    ),
    destinationAccountId: Type.Optional(
      Type.String({
        format: "uuid",
        description:
          "Only the products listed on this destination (in the `listing` state when given): `listing=failed&destinationAccountId=...` is what failed on that store",
      }),
    ),
    availability: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z]{1,40}$",
        description:
          'Only the products with this availability (schema.org names: "InStock", "OutOfStock", "PreOrder", ...)',
      }),
    ),
    stock: Type.Optional(
      Type.Enum([...STOCK_FILTERS], {
        description: `Only the products with this stock: \`out\` 0 units, \`low\` 1 to ${LOW_STOCK}, \`in\` 1 or more, \`unknown\` not known`,
      }),
    ),
    sort: Type.Optional(
      Type.Enum([...LIST_SORTS], {
        description:
          "The order: `updated` newest edit first (the default), `title` A to Z, `stock` fewest units first (unknown last); each then by id. " +
          "Cursors are for the default order only: other orders page by `page`, and their answers carry no cursors.",
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "A `nextCursor` or `prevCursor` of an earlier answer, sent back as it is with the same filters and `pageSize`: " +
          "the page just after (or before) that answer's page, found at the same cost at any depth, and without repeating or " +
          "skipping a product when edits move others meanwhile. `page` is then ignored: the answer's `page` is the cursor's. " +
          "Anything else is a 422.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ProductListSchema = Type.Object({
  ...ListSchema(ProductListItemSchema).properties,
  totalExact: Type.Boolean({
    description:
      `false when a search (\`q\`) matches more than ${SEARCH_COUNT_LIMIT.toLocaleString("en-US")} products past this page's start: \`total\` (and \`totalPages\`) then count ` +
      "that far, a lower bound that still reaches the next pages. Lists without `q` are always counted exactly.",
  }),
  nextCursor: Nullable(
    Type.String({
      description: "Send as `cursor` for the next page (null on the last page)",
    }),
  ),
  prevCursor: Nullable(
    Type.String({
      description: "Send as `cursor` for the previous page (null on the first page)",
    }),
  ),
});

export const HistoryEntrySchema = Type.Object({
  id: Type.String(),
  at: Type.String({ format: "date-time" }),
  actor: Type.Object({ type: Type.String(), id: Nullable(Type.String()) }),
  action: Type.String(),
  changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() })),
});

export const ProductParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const ProductDeleteQuerySchema = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({
        description:
          "Owners only: remove the product at once, leaving its live listings on their stores (the answer names them)",
      }),
    ),
  },
  { additionalProperties: false },
);

const LiveListingSchema = Type.Object({
  destinationAccountId: Type.String(),
  channel: Type.String(),
  remoteId: Type.String({ description: "The listing's id on the channel" }),
});

export const ProductDeletingSchema = Type.Object(
  {
    id: Type.String(),
    deleted: Type.Literal(true),
    endingListings: Type.Array(LiveListingSchema, {
      description:
        "The listings being ended on their stores; the product is removed once all have ended",
    }),
  },
  { description: "Hidden from the catalog; its live listings are being ended" },
);

export const ProductForceDeletedSchema = Type.Object(
  {
    id: Type.String(),
    deleted: Type.Literal(true),
    leftListings: Type.Array(LiveListingSchema, {
      description: "Listings still live on their stores, which the service no longer tracks",
    }),
  },
  { description: "Removed at once (force)" },
);
