import fp from "fastify-plugin";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { SESSION_COOKIE, API_KEY_HEADER } from "./auth.js";

/** OpenAPI 3 generated from the route schemas: the document at `/docs/json`, a browsable UI at `/docs`. */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Catalog import and publishing service",
          version: "1.0.0",
          description:
            "Every route under /api/ is also served under /api/v1/. Errors are `{ error }` with a 4xx or 5xx status. " +
            "Lists are `{ items, page, pageSize, total, totalPages }`.",
        },
        components: {
          securitySchemes: {
            session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
            apiKey: { type: "apiKey", in: "header", name: API_KEY_HEADER },
          },
        },
      },
    });
    await app.register(swaggerUi, { routePrefix: "/docs", uiConfig: { deepLinking: true } });
  },
  { name: "openapi" },
);
