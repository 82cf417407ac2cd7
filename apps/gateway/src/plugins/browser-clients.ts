import fp from "fastify-plugin";
import cors from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ServiceError } from "@catalog/db";

/** Routes the browser extension calls by key, from any origin. */
export const KEY_AUTHENTICATED_PATHS = /^\/api(\/v1)?\/extension\//;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * CORS with credentials for the configured dashboard origins only; the extension route
 * authenticates by key and accepts any origin. A mutating request from a foreign Origin is
 * refused (403): with SameSite=Lax cookies and JSON-only bodies this closes CSRF.
 */
export const browserClientsPlugin = fp(
  async (app: FastifyInstance, { allowedOrigins }: { allowedOrigins: string[] }) => {
    const allowed = new Set(allowedOrigins);
    // @fastify/cors answers an OPTIONS request that is no preflight with a text/plain 400; this
    // hook runs before its own and says the same as `{ error }`.
    app.addHook("onRequest", (request, _reply, done) => {
      if (
        request.method === "OPTIONS" &&
        (!request.headers.origin || !request.headers["access-control-request-method"])
      ) {
        return done(
          new ServiceError(
            400,
            "OPTIONS is answered only as a CORS preflight: send Origin and Access-Control-Request-Method",
          ),
        );
      }
      done();
    });
    const byKey = { origin: true, credentials: false };
    const dashboards = { origin: [...allowed], credentials: true };
    await app.register(cors, {
      hook: "onRequest",
      delegator: (request, callback) =>
        callback(null, KEY_AUTHENTICATED_PATHS.test(request.url ?? "") ? byKey : dashboards),
    });
    app.addHook("onRequest", (request, _reply, done) => {
      const origin = request.headers.origin;
      if (
        origin &&
        !SAFE_METHODS.has(request.method) &&
        !KEY_AUTHENTICATED_PATHS.test(request.url) &&
        !allowed.has(origin) &&
        origin !== ownOrigin(request)
      )
        return done(new ServiceError(403, `requests from origin ${origin} are not allowed`));
      done();
    });
  },
  { name: "browser-clients" },
);
