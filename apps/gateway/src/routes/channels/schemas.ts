import { Type } from "typebox";

export const ChannelFieldSchema = Type.Object({
  name: Type.String({ description: "The query parameter (connect) or settings key" }),
  label: Type.String(),
  required: Type.Boolean(),
  description: Type.String(),
  placeholder: Type.Union([Type.String(), Type.Null()]),
  pattern: Type.Union([Type.String(), Type.Null()], {
    description:
      "A regular expression (JSON Schema `pattern`) the value must match, checked by forms before sending (Shopify's shop domain); null for any value",
  }),
  choices: Type.Union([Type.Enum(["list", "search"]), Type.Null()], {
    description:
      "Settings only: where its values can be chosen from (GET /api/destinations/settings-options): list, all at once (a seller's policies); search, suggestions for typed words (eBay's categories); null, typed in",
  }),
});

export const ChannelInfoSchema = Type.Object({
  channel: Type.String({
    description: "The channel's name, as destinations and /api/integrations/{channel} give it",
  }),
  displayName: Type.String(),
  configured: Type.Boolean({
    description:
      "false when the server lacks this channel's client id or secret: connecting answers 503",
  }),
  connectFields: Type.Array(ChannelFieldSchema, {
    description: "Asked before GET /api/integrations/{channel}/connect (e.g. Shopify's shop)",
  }),
  settingsFields: Type.Array(ChannelFieldSchema, {
    description: "The destination settings publishing needs (PATCH /api/destinations)",
  }),
});

export const ChannelListSchema = Type.Object({
  items: Type.Array(ChannelInfoSchema),
  displayNames: Type.Record(Type.String(), Type.String(), {
    description:
      "Every channel's name for people, by channel: those in `items` and those only operators add (the stand-in), for labelling any destination",
  }),
});
