import type { FastifyRequest } from "fastify";
import { authenticateApiToken, type Db, type TokenPrincipal } from "@catalog/db";

/** How an organisation API token looks (`newCredential("cat")`); anything else is refused unread. */
const TOKEN_FORMAT = /^cat_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/;

/** The credential of `Authorization: Bearer <credential>`, or null without a bearer header. */
export function bearerOf(request: FastifyRequest): string | null {
  const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1] ?? null;
}

export type TokenLookup = (request: FastifyRequest) => Promise<TokenPrincipal | null>;

/**
 * The principal of a request's API token, looked up once per request (the rate limit's key and
 * the auth guard both ask), or null when it sends none or one that is not valid.
 */
export function tokenLookup(db: Db): TokenLookup {
  const looked = new WeakMap<FastifyRequest, Promise<TokenPrincipal | null>>();
  return (request) => {
    const bearer = bearerOf(request);
    if (!bearer || !TOKEN_FORMAT.test(bearer)) return Promise.resolve(null);
    let found = looked.get(request);
    if (!found) {
      found = authenticateApiToken(db, bearer);
      looked.set(request, found);
    }
    return found;
  };
}
