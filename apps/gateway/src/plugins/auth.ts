import fp from "fastify-plugin";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  ServiceError,
  authenticateApiKey,
  findSession,
  type Db,
  type SessionPrincipal,
} from "@catalog/db";
import { bearerOf, type TokenLookup } from "./bearer-tokens.js";
import { tokenScopesOf } from "./token-scopes.js";

export const SESSION_COOKIE = "sid";
export const API_KEY_HEADER = "x-service-api-key";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * Set by `requireSession`, `requireOwner` and `requireAdmin`: the session's user, or for an
     * API token the owner who created it (`apiToken` then says which token).
     */
    principal: SessionPrincipal | null;
    /** The organisation API token a request authenticated with (`Authorization: Bearer`). */
    apiToken: { id: string; name: string } | null;
    /** Set by `requireApiKey`. */
    apiKey: { id: string; orgId: string } | null;
  }
  interface FastifyInstance {
    /** A session cookie, or an API token holding a scope `TOKEN_SCOPES` gives the route. */
    requireSession: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** An owner of the session's org: manages that org's destinations and extension keys. */
    requireOwner: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The platform operator (role `admin`), whose routes span every org. */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireApiKey: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The session principal of a request that passed `requireSession`. */
export function principalOf(request: FastifyRequest): SessionPrincipal {
  if (!request.principal) throw new Error("route is missing the requireSession hook");
  return request.principal;
}

/**
 * Who acts in a request that passed `requireSession` or `requireApiKey`: an org's user, or one of
 * its extension keys.
 */
export interface Acting {
  orgId: string;
  actor: { type: "user" | "apiKey"; id: string };
  /** The signed-in user; null for a key. */
  userId: string | null;
}

export function actingOf(request: FastifyRequest): Acting {
  if (request.principal)
    return {
      orgId: request.principal.org.id,
      actor: { type: "user", id: request.principal.user.id },
      userId: request.principal.user.id,
    };
  if (request.apiKey)
    return {
      orgId: request.apiKey.orgId,
      actor: { type: "apiKey", id: request.apiKey.id },
      userId: null,
    };
  throw new Error("route is missing the requireSession or requireApiKey hook");
}

/**
 * Guards as `onRequest` hooks: missing or bad credentials are 401, a role below the route's 403.
 * Roles do not nest: the operator (`admin`) belongs to an org too, but acts there as a member,
 * so an org's destinations are managed by its owners only. A request with
 * `Authorization: Bearer` is judged by that token alone (its cookie is not read): it acts as the
 * owner who created it, on the routes its scopes open (`token-scopes.ts`), else 403.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, { db, tokens }: { db: Db; tokens: TokenLookup }) => {
    app.decorateRequest("principal", null);
    app.decorateRequest("apiKey", null);
    app.decorateRequest("apiToken", null);

    const requireToken = async (request: FastifyRequest) => {
      const principal = await tokens(request);
      if (!principal)
        throw new ServiceError(
          401,
          "missing, unknown, expired or revoked API token in the Authorization header: an owner creates one in the dashboard's API tokens screen",
        );
      const needed = tokenScopesOf(request);
      const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
      if (needed.length === 0)
        throw new ServiceError(
          403,
          `API tokens cannot use ${route}: it needs a signed-in session (POST /api/auth/session)`,
        );
      if (!needed.some((scope) => principal.token.scopes.includes(scope)))
        throw new ServiceError(
          403,
          `this API token lacks the scope ${needed.join(" or ")}, which ${route} needs (it has ${principal.token.scopes.join(", ")})`,
        );
      const { token, ...acting } = principal;
      request.principal = acting;
      request.apiToken = { id: token.id, name: token.name };
    };

    const requireSession = async (request: FastifyRequest) => {
      if (bearerOf(request) !== null) return requireToken(request);
      const token = request.cookies[SESSION_COOKIE];
      const principal = token
        ? await app.caches.session(request, token, () => findSession(db, token))
        : null;
      if (!principal)
        throw new ServiceError(401, "sign in first: no valid session (POST /api/auth/session)");
      request.principal = principal;
    };

    app.decorate("requireSession", requireSession);
    app.decorate("requireOwner", async (request: FastifyRequest) => {
      await requireSession(request);
      if (request.principal?.user.role !== "owner") {
        throw new ServiceError(
          403,
          "an owner of the org must do this: members read destinations and extension keys and publish, but only owners connect, change or disconnect destinations and create or revoke keys",
        );
      }
    });
    app.decorate("requireAdmin", async (request: FastifyRequest) => {
      await requireSession(request);
      if (request.principal?.user.role !== "admin") {
        throw new ServiceError(
          403,
          "this route is for the platform operator only (role admin, created with the CLI): an org's members and owners cannot use it",
        );
      }
    });
    app.decorate("requireApiKey", async (request: FastifyRequest) => {
      const header = request.headers[API_KEY_HEADER];
      const key = typeof header === "string" ? header.trim() : "";
      const found = key ? await authenticateApiKey(db, key) : null;
      if (!found) {
        throw new ServiceError(
          401,
          `missing, unknown or revoked API key in the ${API_KEY_HEADER} header: an owner creates one in the dashboard's Extension keys screen`,
        );
      }
      request.apiKey = found;
    });
  },
  { name: "auth", dependencies: ["@fastify/cookie", "read-caches"] },
);
