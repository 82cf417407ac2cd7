import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import {
  REVOKED_KEYS_LISTED_DAYS,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  type Db,
} from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";
import {
  CreatedExtensionKeySchema,
  CreateExtensionKeyBodySchema,
  ExtensionKeyListSchema,
} from "./schemas.js";

const KeyParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

// The keys the browser extension sends as x-service-api-key. Every member sees them (to know
// which key a device uses); only owners create and revoke them, as with destinations.
export const extensionKeyRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const common = { tags: ["extension keys"], security: [{ session: [] }] };

  app.get(
    "/extension-keys",
    {
      onRequest: app.requireSession,
      schema: {
        ...common,
        operationId: "listExtensionKeys",
        summary: "The org's extension keys (name, prefix, created, last used), newest first",
        description: `Any member of the org. The keys themselves are never shown again; revoked keys stay listed for ${REVOKED_KEYS_LISTED_DAYS} days with revokedAt.`,
        response: { 200: ExtensionKeyListSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ items: await listApiKeys(db, principalOf(request).org.id) }),
  );

  app.post(
    "/extension-keys",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "createExtensionKey",
        summary: "Create an extension key: the answer holds the key itself, shown this once",
        description:
          "Owners only: a member, or the platform operator in its own org, is 403. Only the key's hash is stored.",
        body: CreateExtensionKeyBodySchema,
        response: {
          201: CreatedExtensionKeySchema,
          ...errorResponses(400, 401, 403, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { key, ...view } = await createApiKey(
        db,
        principalOf(request).org.id,
        request.body.name,
      );
      // A secret in a response must not linger in any cache on the way.
      return reply.code(201).header("cache-control", "no-store").send({ key: view, secret: key });
    },
  );

  app.delete(
    "/extension-keys/:id",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "revokeExtensionKey",
        summary: "Revoke an extension key: it stops working at once",
        description:
          "Owners only: a member, or the platform operator in its own org, is 403. An unknown, already revoked or another org's key is 404.",
        params: KeyParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await revokeApiKey(db, principalOf(request).org.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
