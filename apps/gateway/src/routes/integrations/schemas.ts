// The integration routes' schemas, drawn from the channels' definitions: the channel parameter
// names the channels that can be connected, and the connect and callback queries document every
// channel's own parameters (each saying which channels use it).
import { Type, type TObject, type TProperties, type TSchema } from "typebox";
import type { Channel } from "@catalog/channels";

const MAX_PARAM = 4096;

/** One optional string per parameter any channel names, described with the channels that use it. */
function mergedQuery(
  channels: Channel[],
  queryOf: (c: Channel) => TObject,
  maxLength: number,
): TObject {
  const uses = new Map<string, { channels: string[]; descriptions: Set<string> }>();
  for (const c of channels) {
    for (const [name, schema] of Object.entries(
      queryOf(c).properties as Record<string, TSchema & { description?: string }>,
    )) {
      const use = uses.get(name) ?? { channels: [], descriptions: new Set<string>() };
      use.channels.push(c.displayName);
      if (schema.description) use.descriptions.add(schema.description);
      uses.set(name, use);
    }
  }
  const properties: TProperties = {};
  for (const [name, use] of uses) {
    const description = `${use.channels.join(", ")}: ${[...use.descriptions].join("; ")}`;
    properties[name] = Type.Optional(Type.String({ maxLength, description }));
  }
  // Any other parameter is accepted as a bounded string and passed on to the channel's check.
  return Type.Object(properties, { additionalProperties: Type.String({ maxLength }) });
}

export function integrationSchemas(all: Channel[]) {
  const connectable = all.filter((c) => c.connect);
  const names = connectable.map((c) => c.channel).join(", ");
  const delivering = connectable
    .filter((c) => c.connect?.deliveredStateParam)
    .map((c) => c.displayName);
  const asked = connectable.map(
    (c) =>
      `${c.displayName} ${c.connectFields.length > 0 ? c.connectFields.map((f) => `\`${f.name}\``).join(", ") : "nothing"}`,
  );
  return {
    ChannelParamsSchema: Type.Object({
      channel: Type.String({ maxLength: 32, description: names }),
    }),
    ConnectQuerySchema: mergedQuery(connectable, (c) => c.connectQuery, 2048),
    CallbackQuerySchema: mergedQuery(connectable, (c) => c.callbackQuery, MAX_PARAM),
    /** Which channels need what before connecting, for the connect route's description. */
    connectAsks: asked.join("; "),
    /** The channels whose server delivers keys by POST to the callback. */
    delivering: delivering.join(", ") || "no channel",
  };
}

// A delivering channel's server posts its keys (WooCommerce: { key_id, user_id, consumer_key,
// consumer_secret, key_permissions }).
export const DeliveredKeysSchema = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Union([Type.String({ maxLength: MAX_PARAM }), Type.Number()]),
);

export const ConnectedSchema = Type.Object({
  destination: Type.Object({
    id: Type.String(),
    channel: Type.String(),
    name: Type.String(),
    health: Type.String(),
    connectedAt: Type.String({ format: "date-time" }),
  }),
  reconnected: Type.Boolean({
    description:
      "true when this store was already connected: its tokens were replaced, its settings and listings kept",
  }),
});
