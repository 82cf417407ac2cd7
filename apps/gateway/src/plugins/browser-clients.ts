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
    await app.register(cors, {
      hook: "onRequest",
      delegator: (request, callback) => {
        const keyAuthenticated = KEY_AUTHENTICATED_PATHS.test(request.url ?? "");
        callback(null, keyAuthenticated
          ? { origin: true, credentials: false }
          : { origin: [...allowed], credentials: true });
      },
    });
    app.addHook("onRequest", async (request) => {
      const origin = request.headers.origin;
      if (!origin || SAFE_METHODS.has(request.method) || KEY_AUTHENTICATED_PATHS.test(request.url)) return;
      if (!allowed.has(origin) && origin !== ownOrigin(request)) {
        throw new ServiceError(403, `requests from origin ${origin} are not allowed`);
      }
    });
  },
  { name: "browser-clients" },
);
