import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { createApiToken, listApiTokens, revokeApiToken, type Db } from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";
import { ApiTokenListSchema, CreateApiTokenBodySchema, CreatedApiTokenSchema } from "./schemas.js";

const TokenParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

// Organisation API tokens for integrations. Owners only, and with a session only: no token
// scope opens these routes (`token-scopes.ts`), so a leaked token cannot mint others.
export const apiTokenRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook("onRequest", app.requireOwner);
  const common = { tags: ["api tokens"], security: [{ session: [] }] };
  const ownersOnly =
    "Owners only, with a session: a member (or the platform operator in its own org) is 403, and so is an API token.";

  app.get(
    "/api-tokens",
    {
      schema: {
        ...common,
        operationId: "listApiTokens",
        summary: "The org's API tokens (name, scopes, created, last used), newest first",
        description: `${ownersOnly} The tokens themselves are never shown again; last use is kept to the minute.`,
        response: { 200: ApiTokenListSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({ items: await listApiTokens(db, principalOf(request).org.id) }),
  );

  app.post(
    "/api-tokens",
    {
      schema: {
        ...common,
        operationId: "createApiToken",
        summary: "Create an API token: the answer holds the token itself, shown this once",
        description: `${ownersOnly} The token acts as the owner who created it, on the operations its scopes open, until it expires, is revoked, or that user is no longer an owner. Only its hash is stored.`,
        body: CreateApiTokenBodySchema,
        response: {
          201: CreatedApiTokenSchema,
          ...errorResponses(400, 401, 403, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { org, user } = principalOf(request);
      const { name, scopes, expiresAt } = request.body;
      const { token, view } = await createApiToken(db, {
        orgId: org.id,
        userId: user.id,
        name,
        scopes,
        expiresAt: expiresAt ? new Date(expiresAt) : null,
      });
      // A secret in a response must not linger in any cache on the way.
      return reply
        .code(201)
        .header("cache-control", "no-store")
        .send({ token: view, secret: token });
    },
  );

  app.delete(
    "/api-tokens/:id",
    {
      schema: {
        ...common,
        operationId: "revokeApiToken",
        summary: "Revoke an API token: it is refused from the next request on, on every gateway",
        description: `${ownersOnly} An unknown, already revoked or another org's token is 404.`,
        params: TokenParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await revokeApiToken(db, principalOf(request).org.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
