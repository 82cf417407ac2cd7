import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { RedisClient } from "@catalog/queue";
import type { ChannelRegistry } from "@catalog/channels";
import {
  disconnectDestination,
  listDestinations,
  updateDestination,
  type CredentialKeyring,
  type Db,
} from "@catalog/db";
import { readDestinationStatuses } from "../../destination-status.js";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";
import { clearQueuedWork } from "./clear-queued-work.js";
import { settingsOptions } from "./settings-options.js";
import {
  DestinationListSchema,
  DestinationPatchSchema,
  DestinationIdQuerySchema,
  DisconnectedSchema,
  SettingsOptionsQuerySchema,
  SettingsOptionsSchema,
  UpdatedDestinationSchema,
} from "./schemas.js";

export interface DestinationOptions {
  db: Db;
  redis: RedisClient;
  /**
   * The deployment's Redis key prefix (not `prefix`: Fastify reads that option as the routes' URL
   * prefix).
   */
  redisPrefix: string;
  channels: ChannelRegistry;
  /** Opens a store's credentials to ask its channel for a setting's choices; null: 503 there. */
  keyring: CredentialKeyring | null;
}

export const destinationRoutes: FastifyPluginAsyncTypebox<DestinationOptions> = async (
  app,
  { db, redis, redisPrefix: prefix, channels, keyring },
) => {
  // Every member reads the org's destinations (and publishes to them); changing or
  // disconnecting one is for the org's owners.
  const common = { tags: ["destinations"], security: [{ session: [] }] };

  app.get(
    "/destinations",
    {
      onRequest: app.requireSession,
      schema: {
        ...common,
        operationId: "listDestinations",
        summary:
          "The org's connected destination accounts with breaker, channel wait and queue depths",
        description:
          "Oldest connection first; stores connected in the same millisecond come in name order.",
        response: { 200: DestinationListSchema, ...errorResponses(401, 429, 503) },
      },
    },
    async (request) => {
      const destinations = await listDestinations(db, principalOf(request).org.id);
      const statuses = await readDestinationStatuses(
        db,
        redis,
        prefix,
        destinations.map((d) => d.id),
      );
      return {
        items: destinations.map((d) => {
          const { breaker, channelWait, queue } = statuses.get(d.id)!;
          return {
            ...d,
            breaker,
            channelWaitUntil: channelWait?.until ?? null,
            channelWait: channelWait
              ? { channel: channelWait.channel, reason: channelWait.reason }
              : null,
            queue,
          };
        }),
      };
    },
  );

  app.get(
    "/destinations/settings-options",
    {
      onRequest: app.requireSession,
      schema: {
        ...common,
        operationId: "listDestinationSettingsOptions",
        summary:
          "The choices of one channel setting of a destination, from the seller's own account (eBay: business policies, inventory locations, category suggestions for `q`)",
        description:
          "For the settings form: owners and members may read. A setting the channel does not have, or offers no choices for, is 422, as is a search field without `q`. " +
          "The channel is asked with the destination's credentials; when it fails (refused access, an outage, a wait it asked for), the answer is 502 with the reason in words, and the setting can still be typed in.",
        querystring: SettingsOptionsQuerySchema,
        response: { 200: SettingsOptionsSchema, ...errorResponses(401, 404, 422, 429, 502, 503) },
      },
    },
    async (request) =>
      settingsOptions(
        { db, channels, keyring, redis, redisPrefix: prefix },
        principalOf(request).org.id,
        request.query,
        AbortSignal.timeout(30_000),
      ),
  );

  app.patch(
    "/destinations",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "updateDestination",
        summary:
          "Rename a destination, change its channel settings (checked by the channel: 422 names what is missing) or its sync settings (autoSync, outOfStockPolicy)",
        description: "Owners only: a member, or the platform operator in its own org, is 403.",
        querystring: DestinationIdQuerySchema,
        body: DestinationPatchSchema,
        response: {
          200: UpdatedDestinationSchema,
          ...errorResponses(401, 403, 404, 415, 422, 429),
        },
      },
    },
    async (request) =>
      updateDestination(
        db,
        principalOf(request).org.id,
        request.query.id,
        request.body,
        (channel, settings) => channels.channel(channel).checkSettings(settings),
      ),
  );

  app.delete(
    "/destinations",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "disconnectDestination",
        summary:
          "Disconnect a destination: its credentials are erased and its queued jobs removed; products and its listings on the store stay",
        description:
          "Owners only: a member, or the platform operator in its own org, is 403. Pending publishes and ends to it end as `failed`. " +
          "Its listings stay live on the store (disconnecting ends nothing there): `listingsLeftLive` counts them; to take them down, " +
          "unpublish (POST /api/products/unpublish) before disconnecting. Disconnecting an already disconnected destination answers 200 again, also when two disconnects of it run at the same moment.",
        querystring: DestinationIdQuerySchema,
        response: { 200: DisconnectedSchema, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const { id } = request.query;
      const orgId = principalOf(request).org.id;
      const { listingsLeftLive } = await disconnectDestination(db, orgId, id);
      // Its pending listings just failed: the catalog list shows listing states.
      await app.caches.catalogChanged(orgId);
      // PostgreSQL already says the destination is gone and its publishes failed, so a worker
      // that still receives one of its jobs skips it. Clearing Redis is housekeeping: if Redis is
      // down it is logged, not failed, and a repeated DELETE finishes it.
      await clearQueuedWork(app.queues.publish, redis, prefix, id).catch((err: unknown) => {
        request.log.warn(
          { err, destinationId: id },
          "destination disconnected, but its Redis queue could not be cleared",
        );
      });
      return {
        id,
        disconnected: true as const,
        listingsLeftLive,
        message:
          listingsLeftLive === 0
            ? "disconnected; no listing of it is live on the store"
            : `disconnected; ${listingsLeftLive} listing${listingsLeftLive === 1 ? " stays" : "s stay"} live on the store: end them there, or unpublish before disconnecting`,
      };
    },
  );
};
