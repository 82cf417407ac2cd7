import { Type } from "typebox";
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENT_TYPES } from "@catalog/db";
import { ListSchema, PageQuerySchema } from "../../schemas/common.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: "date-time" });

export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;

const Url = Type.String({
  minLength: 1,
  maxLength: MAX_WEBHOOK_URL_LENGTH,
  description:
    "Where events are POSTed: a public http(s) address (the same policy as imports; private, loopback and metadata addresses are refused)",
});
// Event types are checked by the route (422 naming the unknown ones), not by the schema, so the
// message can say which.
const Events = Type.Array(Type.String({ maxLength: 100 }), {
  minItems: 1,
  maxItems: 50,
  description: `Event types to receive: ${WEBHOOK_EVENT_TYPES.join(", ")}`,
});
const Description = Type.String({ maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH });

export const WebhookEndpointSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Nullable(Type.String()),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledAt: Nullable(Time),
  disabledReason: Nullable(
    Type.String({
      description:
        "Why the service disabled the endpoint (its deliveries failed for days); null when an owner did",
    }),
  ),
  failingSince: Nullable(
    Type.String({ format: "date-time", description: "Start of the current run of failures" }),
  ),
  createdAt: Time,
  updatedAt: Time,
});

export const WebhookEndpointListSchema = Type.Object({
  items: Type.Array(WebhookEndpointSchema, {
    description: `Newest first; at most ${MAX_WEBHOOK_ENDPOINTS} per org`,
  }),
});

export const CreateWebhookBodySchema = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description) },
  { additionalProperties: false },
);

export const UpdateWebhookBodySchema = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Nullable(Description)),
    enabled: Type.Optional(
      Type.Boolean({ description: "true re-enables an endpoint and clears its disabled state" }),
    ),
  },
  { additionalProperties: false },
);

export const CreatedWebhookSchema = Type.Object({
  endpoint: WebhookEndpointSchema,
  secret: Type.String({
    description:
      "The signing secret (whsec_...), shown this once: verify each delivery's webhook-signature with it (Standard Webhooks)",
  }),
});

export const WebhookDeliverySchema = Type.Object({
  id: Type.String(),
  messageId: Type.String({
    description: "The webhook-id header: the same on every attempt and replay",
  }),
  eventType: Type.String(),
  status: Type.Enum(["pending", "succeeded", "failed"]),
  attempts: Type.Integer(),
  responseStatus: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  createdAt: Time,
  lastAttemptAt: Nullable(Time),
  nextAttemptAt: Nullable(Time),
  deliveredAt: Nullable(Time),
});

export const WebhookDeliveryListSchema = ListSchema(WebhookDeliverySchema);

export const WebhookDeliveryQuerySchema = PageQuerySchema;

export const WebhookParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const WebhookDeliveryParamsSchema = Type.Object({
  id: Type.String({ maxLength: 64 }),
  deliveryId: Type.String({ maxLength: 64 }),
});
