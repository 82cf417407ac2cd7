import fp from "fastify-plugin";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * Helmet's headers on every answer: nosniff, HSTS (browsers heed it only over https), no framing,
 * no referrer, same-origin opener and resource policies. The API answers data, never a page, so
 * its CSP lets nothing load or frame it; the dashboard (plugins/dashboard.ts) and the OpenAPI
 * page (plugins/openapi.ts) set their own. Registered before every hook that may answer early
 * (rate limit, CORS, auth), so their answers carry the headers too.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      xFrameOptions: { action: "deny" },
    });
  },
  { name: "security-headers" },
);
