import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import {
  MAX_WEBHOOK_ENDPOINTS,
  ServiceError,
  createTestDelivery,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  invalid,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
  toWebhookEndpointView,
  updateWebhookEndpoint,
  type CredentialKeyring,
  type Db,
} from "@catalog/db";
import { createPublicUrlScreen, type UrlPolicy } from "@catalog/fetch/url-guard";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses, toList } from "../../schemas/common.js";
import {
  CreateWebhookBodySchema,
  CreatedWebhookSchema,
  UpdateWebhookBodySchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliveryQuerySchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookParamsSchema,
} from "./schemas.js";

export interface WebhookRoutesOptions {
  db: Db;
  /** Seals the signing secrets; without it no endpoint can be created (503). */
  keyring: CredentialKeyring | null;
  /** The public-URL policy endpoints must pass (WEBHOOK_PRIVATE_URLS lets loopback through). */
  policy: UrlPolicy;
}

// Webhooks out (issue 29): owners manage the org's endpoints and see their delivery logs; a
// member is 403 on every route, as the secrets and targets are the owner's business.
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (
  app,
  { db, keyring, policy },
) => {
  const common = { tags: ["webhooks"], security: [{ session: [] }] };
  const ownersOnly =
    "Owners only: a member, or the platform operator in its own org, is 403. Another org's endpoint is 404.";

  /** 422 naming the URL and why the public-URL policy refuses it. */
  const screen = async (url: string) => {
    const refusal = await createPublicUrlScreen(policy).refusal(url);
    if (refusal)
      throw invalid(
        `webhook URL ${url} ${refusal}; only public web addresses can receive webhooks`,
      );
  };

  /** Sends at once; if Redis cannot take the job, the sender's sweep finds the delivery. */
  const enqueue = async (deliveryId: string) => {
    await app.queues.webhooks.enqueueNew([deliveryId]).catch((err: unknown) => {
      app.log.warn({ err, deliveryId }, "webhook delivery not enqueued; the sweep will send it");
    });
  };

  app.get(
    "/webhooks",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "listWebhookEndpoints",
        summary: "The org's webhook endpoints, newest first (never their secrets)",
        description: ownersOnly,
        response: { 200: WebhookEndpointListSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({ items: await listWebhookEndpoints(db, principalOf(request).org.id) }),
  );

  app.post(
    "/webhooks",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "createWebhookEndpoint",
        summary:
          "Register a webhook endpoint: the answer holds its signing secret, shown this once",
        description: `${ownersOnly} A URL the public-URL policy refuses, or an unknown event type, is 422 naming it; more than ${MAX_WEBHOOK_ENDPOINTS} endpoints is 409; without CREDENTIALS_KEYS to seal the secret, 503.`,
        body: CreateWebhookBodySchema,
        response: {
          201: CreatedWebhookSchema,
          ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      if (!keyring)
        throw new ServiceError(
          503,
          "webhooks cannot be registered: the service has no CREDENTIALS_KEYS to seal their secrets",
        );
      await screen(request.body.url);
      const created = await createWebhookEndpoint(
        db,
        keyring,
        principalOf(request).org.id,
        request.body,
      );
      // A secret in a response must not linger in any cache on the way.
      return reply.code(201).header("cache-control", "no-store").send(created);
    },
  );

  app.get(
    "/webhooks/:id",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "getWebhookEndpoint",
        summary: "One webhook endpoint (never its secret)",
        description: ownersOnly,
        params: WebhookParamsSchema,
        response: { 200: WebhookEndpointSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) =>
      toWebhookEndpointView(
        await findWebhookEndpoint(db, principalOf(request).org.id, request.params.id),
      ),
  );

  app.patch(
    "/webhooks/:id",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "updateWebhookEndpoint",
        summary: "Change an endpoint's URL, events or description, or turn it off and on",
        description: `${ownersOnly} enabled: true re-enables an endpoint the service disabled and clears why. A refused URL or unknown event type is 422.`,
        params: WebhookParamsSchema,
        body: UpdateWebhookBodySchema,
        response: {
          200: WebhookEndpointSchema,
          ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request) => {
      const orgId = principalOf(request).org.id;
      // Unknown endpoint first (404), then the URL (422).
      await findWebhookEndpoint(db, orgId, request.params.id);
      if (request.body.url !== undefined) await screen(request.body.url);
      return updateWebhookEndpoint(db, orgId, request.params.id, request.body);
    },
  );

  app.delete(
    "/webhooks/:id",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "deleteWebhookEndpoint",
        summary: "Delete an endpoint and its delivery log; nothing more is sent to it",
        description: ownersOnly,
        params: WebhookParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await deleteWebhookEndpoint(db, principalOf(request).org.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/webhooks/:id/deliveries",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "listWebhookDeliveries",
        summary: "An endpoint's delivery log, newest first, paged",
        description: `${ownersOnly} Each delivery is one event for this endpoint, with its attempts so far; pending ones name their next attempt.`,
        params: WebhookParamsSchema,
        querystring: WebhookDeliveryQuerySchema,
        response: { 200: WebhookDeliveryListSchema, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const { items, total } = await listWebhookDeliveries(
        db,
        principalOf(request).org.id,
        request.params.id,
        request.query,
      );
      return toList(items, total, request.query);
    },
  );

  app.post(
    "/webhooks/:id/deliveries/:deliveryId/replay",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "replayWebhookDelivery",
        summary: "Send a delivery again, with the same webhook-id and body",
        description: `${ownersOnly} The answer is the new delivery (202: it is sent from the queue); the earlier one stays in the log. A disabled endpoint is 422: enable it first.`,
        params: WebhookDeliveryParamsSchema,
        response: { 202: WebhookDeliverySchema, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const delivery = await replayWebhookDelivery(
        db,
        principalOf(request).org.id,
        request.params.id,
        request.params.deliveryId,
      );
      await enqueue(delivery.id);
      return reply.code(202).send(delivery);
    },
  );

  app.post(
    "/webhooks/:id/test",
    {
      onRequest: app.requireOwner,
      schema: {
        ...common,
        operationId: "testWebhookEndpoint",
        summary: "Send a webhook.test event to this endpoint",
        description: `${ownersOnly} The answer is the delivery (202: it is sent from the queue); watch its status in the delivery log.`,
        params: WebhookParamsSchema,
        response: { 202: WebhookDeliverySchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const delivery = await createTestDelivery(db, principalOf(request).org.id, request.params.id);
      await enqueue(delivery.id);
      return reply.code(202).send(delivery);
    },
  );
};
