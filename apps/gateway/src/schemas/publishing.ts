// Publishing shapes shared by the destination, sync-log, publish-run and system routes.
import { Type } from "typebox";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: "date-time" });
const Count = Type.Integer({ minimum: 0 });

export const SYNC_STATUSES = ["queued", "running", "succeeded", "failed", "dead"] as const;

export const QueueCountsSchema = Type.Object({
  waiting: Count,
  active: Count,
  delayed: Count,
  failed: Count,
  dead: Type.Integer({
    minimum: 0,
    description: "Publishes that ran out of attempts (the dead-letter queue), from PostgreSQL",
  }),
});

export const BreakerSchema = Type.Object(
  {
    state: Type.Enum(["closed", "open", "halfOpen"]),
    openedAt: Nullable(Time),
    retryAt: Nullable(Time),
  },
  { description: "The destination's circuit breaker as the publish workers last recorded it" },
);
