import fp from "fastify-plugin";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { SESSION_COOKIE, API_KEY_HEADER } from "./auth.js";
import { documentOperation } from "./openapi-operation.js";

const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * OpenAPI 3 generated from the route schemas: the document at `/docs/json`, a browsable UI at
 * `/docs`.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Catalog import and publishing service",
          version: "1.0.0",
          description:
            "Every route under /api/ is also served under /api/v1/. Errors are `{ error }` with a 4xx or 5xx status; " +
            "while the database cannot be reached, any route that needs it answers 503 with Retry-After. " +
            "Lists are `{ items, page, pageSize, total, totalPages }`.",
        },
        servers: [{ url: "/", description: "This server" }],
        // Described here once, in the order a reader meets them: sign in, catalog, import, publish,
        // operate.
        tags: [
          { name: "auth", description: "Sessions (cookie) for the dashboard" },
          { name: "products", description: "The org's canonical catalog, its edits and history" },
          {
            name: "import",
            description: "Products from URLs, documents and the browser extension",
          },
          {
            name: "publish",
            description: "Publishing products to destination accounts, followed through sync logs",
          },
          {
            name: "destinations",
            description:
              "Connected sales-channel accounts, their breakers, channel waits and queues",
          },
          {
            name: "integrations",
            description: "The sales channels this server offers, and connecting a store to one",
          },
          {
            name: "extension keys",
            description:
              "The org's keys for the browser extension: members list them, owners create and revoke them",
          },
          { name: "legal", description: "Privacy, terms and DPA signatures" },
          {
            name: "api tokens",
            description:
              "The org's API tokens for integrations (Authorization: Bearer): owners create, list and revoke them, with a session only",
          },
          {
            name: "system",
            description:
              "The platform operator's (role admin) view of every org's queues, and recovery actions; an org's members and owners get 403",
          },
        ],
        components: {
          securitySchemes: {
            session: {
              type: "apiKey",
              in: "cookie",
              name: SESSION_COOKIE,
              description: "The session cookie set by POST /api/auth/session",
            },
            apiKey: {
              type: "apiKey",
              in: "header",
              name: API_KEY_HEADER,
              description: "An extension key (csk_...), created by an owner in the dashboard",
            },
            apiToken: {
              type: "http",
              scheme: "bearer",
              description:
                "An organisation API token (cat_...), created by an owner in the dashboard's API tokens screen and sent as `Authorization: Bearer cat_...`. It acts as that owner on the operations whose security lists `apiToken` with one of its scopes (catalog:read, catalog:write, publish, destinations:manage); any other operation is 403 for a token. Revoked or expired: 401. Each token has a rate-limit budget of its own.",
            },
            notificationSecret: {
              type: "http",
              scheme: "bearer",
              description:
                "A channel's notifications secret (AMAZON_NOTIFICATIONS_SECRET), sent by the operator's relay",
            },
          },
        },
      },
      transform: documentOperation,
    });
    // In place of the API's CSP: Swagger UI's scripts from here only; its styles (some applied
    // inline) and data-URL icons.
    await app.register(swaggerUi, {
      routePrefix: "/docs",
      uiConfig: { deepLinking: true },
      staticCSP: DOCS_CSP,
    });
  },
  { name: "openapi" },
);
