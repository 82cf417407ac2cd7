import { Type } from "typebox";
import { BreakerSchema, QueueCountsSchema } from "../../schemas/publishing.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: "date-time" });

const SyncSettings = {
  autoSync: Type.Boolean({
    description:
      "Keep listings in sync automatically: a change of what the channel receives updates the live listings (on for new destinations)",
  }),
  outOfStockPolicy: Type.Enum(["keepAtZero", "endAndRelist"], {
    description:
      "A live product out of stock: keepAtZero keeps the listing with quantity 0; endAndRelist ends it and lists it again when stock returns",
  }),
};

export const DestinationSchema = Type.Object({
  id: Type.String(),
  channel: Type.String(),
  name: Type.String(),
  health: Type.Enum(["ok", "degraded", "down"]),
  breaker: BreakerSchema,
  channelWaitUntil: Nullable(
    Type.String({
      format: "date-time",
      description: "Until when the channel asked us to wait (429, Retry-After)",
    }),
  ),
  channelWait: Nullable(
    Type.Object(
      { channel: Type.String(), reason: Type.String() },
      {
        description:
          "Which channel imposed the wait in channelWaitUntil, and why (null when there is none)",
      },
    ),
  ),
  queue: QueueCountsSchema,
  settings: Type.Record(Type.String(), Type.Unknown(), {
    description:
      "The channel settings publishing uses (marketplace, category, policies...); never credentials",
  }),
  ...SyncSettings,
  connectedAt: Time,
});

export const DestinationListSchema = Type.Object({ items: Type.Array(DestinationSchema) });

// Any text is accepted as an id: one that names no destination of the org is 404 ("unknown"),
// as for /api/products/:id; only a missing id is a validation error (422).
export const DestinationIdQuerySchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: "The destination account" }) },
  { additionalProperties: false },
);

export const DisconnectedSchema = Type.Object({
  id: Type.String(),
  disconnected: Type.Literal(true),
  listingsLeftLive: Type.Integer({
    description:
      "Listings of this destination still live on the store: disconnecting does not end them (unpublish first to end them)",
  }),
  message: Type.String(),
});

const SettingValue = Type.Union([
  Type.String({ maxLength: 500 }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
]);

export const DestinationPatchSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    settings: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 64 }), SettingValue, {
        maxProperties: 50,
        description:
          "Merged into the destination's settings; null removes one. eBay needs marketplaceId, categoryId, merchantLocationKey, paymentPolicyId, returnPolicyId, fulfillmentPolicyId; Etsy needs taxonomyId (see the README)",
      }),
    ),
    autoSync: Type.Optional(SyncSettings.autoSync),
    outOfStockPolicy: Type.Optional(SyncSettings.outOfStockPolicy),
  },
  { additionalProperties: false },
);

export const UpdatedDestinationSchema = Type.Object({
  id: Type.String(),
  channel: Type.String(),
  name: Type.String(),
  health: Type.Enum(["ok", "degraded", "down"]),
  settings: Type.Record(Type.String(), Type.Unknown()),
  ...SyncSettings,
  connectedAt: Time,
});

export const SettingsOptionsQuerySchema = Type.Object(
  {
    id: DestinationIdQuerySchema.properties.id,
    field: Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        "The setting (a `settingsFields` name of GET /api/channels whose `choices` is list or search)",
    }),
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: "The words to search for: required (2 characters or more) for search fields",
      }),
    ),
    marketplaceId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "The marketplace to list choices for when the form's differs from the saved one (eBay's policies and categories are per marketplace); by default the destination's",
      }),
    ),
  },
  { additionalProperties: false },
);

export const SettingsOptionsSchema = Type.Object({
  field: Type.String(),
  choices: Type.Enum(["list", "search"]),
  options: Type.Array(
    Type.Object({
      value: Type.String({ description: "What the setting is set to (an id, a key)" }),
      label: Type.String({ description: "How the seller (or the channel) names it" }),
      detail: Nullable(
        Type.String({ description: "What tells two alike apart: a category's path, a town" }),
      ),
    }),
    {
      description:
        "From the seller's own account on the channel (or the channel's fixed list); empty when it has none",
    },
  ),
});
