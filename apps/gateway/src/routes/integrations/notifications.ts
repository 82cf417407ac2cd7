// POST /integrations/<channel>/notifications: a channel's own notifications about listings
// (Amazon's listing status and issues changes, relayed from the app's SQS queue by the operator).
// One route per channel that sends them, with its body schema; the sender proves itself with the
// channel's shared secret as `Authorization: Bearer`, checked before the body is read. What a
// notification says is kept on the listings it concerns (GET /products/:id, `channelReports`).
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Channel, ChannelRegistry } from "@catalog/channels";
import { recordChannelReport, ServiceError, type Db } from "@catalog/db";
import { errorResponses } from "../../schemas/common.js";

export interface NotificationOptions {
  db: Db;
  channels: ChannelRegistry;
}

/** A notification is a few hundred bytes; this leaves room for channels that add fields. */
const BODY_LIMIT = 64 * 1024;

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the Authorization header carries the secret (compared in constant time). */
function carriesSecret(header: string | undefined, secret: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
  return !!given && timingSafeEqual(digest(given), digest(secret));
}

const NotifiedSchema = Type.Object({
  matched: Type.Integer({
    description:
      "Listings the notification is about (0: none here, e.g. a SKU published by other means); the sender should not retry it either way",
  }),
});

export const notificationRoutes: FastifyPluginAsyncTypebox<NotificationOptions> = async (
  app,
  { db, channels },
) => {
  const notifying = channels
    .channels()
    .filter(
      (c): c is Channel & { notifications: NonNullable<Channel["notifications"]> } =>
        c.notifications !== null,
    );
  for (const channel of notifying) {
    const { secret, secretVariable, body, read } = channel.notifications;
    app.post(
      `/integrations/${channel.channel}/notifications`,
      {
        bodyLimit: BODY_LIMIT,
        onRequest: async (request) => {
          if (!secret)
            throw new ServiceError(
              404,
              `${channel.displayName} notifications are not taken on this server: set ${secretVariable}`,
            );
          if (!carriesSecret(request.headers.authorization, secret))
            throw new ServiceError(
              401,
              `send ${secretVariable}'s value as Authorization: Bearer <secret>`,
            );
        },
        schema: {
          tags: ["integrations"],
          security: [{ notificationSecret: [] }],
          body,
          operationId: `receive${channel.channel.charAt(0).toUpperCase()}${channel.channel.slice(1)}Notifications`,
          summary: `${channel.displayName}'s listing notifications, relayed by the operator: recorded on the listings they concern`,
          description:
            `Authorization: Bearer <${secretVariable}>. Off (404) while ${secretVariable} is empty. ` +
            "A notification older than one already recorded for the same SKU and kind changes nothing; a repeated one is harmless. " +
            "A notification this server cannot read is 422: it will not be readable later either (send it to the dead-letter queue).",
          response: { 200: NotifiedSchema, ...errorResponses(401, 404, 413, 415, 422, 429) },
        },
      },
      async (request) => {
        const report = read(request.body);
        const { matched } = await recordChannelReport(db, { channel: channel.channel, ...report });
        request.log.info(
          { channel: channel.channel, sku: report.sku, matched },
          "channel notification recorded",
        );
        return { matched };
      },
    );
  }
};
