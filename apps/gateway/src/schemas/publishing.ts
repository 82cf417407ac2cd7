// Publishing shapes shared by the destination, sync-log, publish-run and system routes.
import { Type } from "typebox";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: "date-time" });
const Count = Type.Integer({ minimum: 0 });

export const SYNC_STATUSES = ["queued", "running", "succeeded", "failed", "dead"] as const;

const FAILURE_PROPERTIES = {
  kind: Type.Enum(["product", "settings", "access", "temporary"], {
    description:
      "What it needs before it can succeed: product (fix the product's data), settings (the store's settings), access (connect the store again), temporary (an outage or a wait: a retry can change it)",
  }),
  field: Nullable(
    Type.String({
      description:
        'The product field or store setting at fault, as the API names it ("price", "title", "settings"); null when none is named',
    }),
  ),
  reason: Nullable(
    Type.String({
      description:
        'The channel\'s own words about it, without ids ("price is required", "categoryId is required; paymentPolicyId is required")',
    }),
  ),
};

export const FailureSchema = Nullable(
  Type.Object(FAILURE_PROPERTIES, {
    description:
      "Set on a failed or dead publish (null otherwise, and for one recorded before failures were classified); `error` keeps the full message",
  }),
);

export const RunCellFailureSchema = Nullable(
  Type.Object(
    {
      ...FAILURE_PROPERTIES,
      retryable: Type.Boolean({
        description:
          "Whether retrying the run can change this cell's outcome now: a temporary failure, or a product, settings or access failure fixed since it failed. Retrying the run retries only these.",
      }),
    },
    { description: "Set on a failed or dead cell; see the sync log's `failure`" },
  ),
);

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
