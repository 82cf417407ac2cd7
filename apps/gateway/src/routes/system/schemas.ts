import { Type } from "typebox";
import { BreakerSchema, QueueCountsSchema } from "../../schemas/publishing.js";

const HealthSchema = Type.Object({
  ok: Type.Boolean(),
  latencyMs: Type.Integer(),
  error: Type.Optional(Type.String()),
});

export const SystemSchema = Type.Object({
  labMode: Type.Boolean({
    description: "Whether flush_redis is allowed (lab mode is configuration: LAB_MODE)",
  }),
  redis: HealthSchema,
  database: HealthSchema,
  queues: Type.Array(
    Type.Object({ destinationAccountId: Type.String(), ...QueueCountsSchema.properties }),
    {
      description:
        "One entry per connected destination account of every org; empty while Redis is unreachable",
    },
  ),
  dlq: Type.Object({
    total: Type.Integer({
      minimum: 0,
      description: "Dead publishes of every org, from PostgreSQL",
    }),
  }),
  breakers: Type.Array(
    Type.Object({ destinationAccountId: Type.String(), ...BreakerSchema.properties }),
    {
      description:
        "One entry per connected destination account (closed included); empty while Redis is unreachable",
    },
  ),
});

export const ACTIONS = ["replay_dlq", "purge_dlq", "flush_redis"] as const;

export const ActionSchema = Type.Object(
  {
    action: Type.Enum([...ACTIONS], {
      description:
        "replay_dlq: dead publishes back to queued with their attempts reset; purge_dlq: dead publishes end as failed; " +
        "flush_redis (lab mode only): delete every Redis key of this deployment (PostgreSQL keeps the record; workers re-enqueue pending work)",
    }),
    destinationAccountId: Type.Optional(
      Type.String({
        format: "uuid",
        description: "Limit replay_dlq or purge_dlq to one destination account",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ActionResultSchema = Type.Object({
  action: Type.Enum([...ACTIONS]),
  affected: Type.Integer({
    minimum: 0,
    description: "Publishes replayed or purged, or Redis keys deleted",
  }),
});
