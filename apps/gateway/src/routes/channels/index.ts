import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ChannelRegistry } from "@catalog/channels";
import { errorResponses } from "../../schemas/common.js";
import { ChannelListSchema } from "./schemas.js";

export interface ChannelRoutesOptions {
  channels: ChannelRegistry;
  /** Whether CREDENTIALS_KEYS is set: without keys to seal tokens, no channel can be connected. */
  canSealCredentials: boolean;
}

/**
 * The channels a merchant can connect (the stand-in is added by operators only), each describing
 * its own forms.
 */
export const channelRoutes: FastifyPluginAsyncTypebox<ChannelRoutesOptions> = async (
  app,
  { channels, canSealCredentials },
) => {
  app.get(
    "/channels",
    {
      onRequest: app.requireSession,
      schema: {
        tags: ["integrations"],
        security: [{ session: [] }],
        operationId: "listChannels",
        summary:
          "The sales channels a store can be connected to, whether this server is set up for each, and the fields each asks for",
        description:
          "`configured` is false when the server lacks the channel's client id or secret, or the keys that seal tokens (CREDENTIALS_KEYS): " +
          "connecting answers 503 then. `connectFields` are query parameters of GET /api/integrations/{channel}/connect; `settingsFields` are the " +
          "keys of a destination's `settings` (PATCH /api/destinations), `required` as publishing checks them.",
        response: { 200: ChannelListSchema, ...errorResponses(401, 429) },
      },
    },
    async () => ({
      items: channels.channels().flatMap((d) =>
        d.connect
          ? [
              {
                channel: d.channel,
                displayName: d.displayName,
                configured: canSealCredentials && d.connect.missingConfiguration().length === 0,
                connectFields: d.connectFields,
                settingsFields: d.settingsFields,
              },
            ]
          : [],
      ),
      displayNames: Object.fromEntries(channels.channels().map((d) => [d.channel, d.displayName])),
    }),
  );
};
