import { Type } from "typebox";
import { PageQuerySchema } from "../../schemas/common.js";
import { BreakerSchema, RunCellFailureSchema, SYNC_STATUSES } from "../../schemas/publishing.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: "date-time" });
const Count = Type.Integer({ minimum: 0 });

export const RunCountsSchema = Type.Object(
  {
    queued: Count,
    running: Count,
    succeeded: Count,
    failed: Count,
    dead: Count,
  },
  {
    description:
      "Cells per state (a cell is one product on one destination, in its latest attempt)",
  },
);

export const RunCellSchema = Type.Object({
  productId: Type.String(),
  destinationAccountId: Type.String(),
  syncLogId: Type.String({
    description: "The latest sync log of this cell (a retry makes a new one)",
  }),
  status: Type.Enum([...SYNC_STATUSES]),
  attempts: Type.Integer(),
  error: Nullable(Type.String()),
  failure: RunCellFailureSchema,
  remoteUrl: Nullable(Type.String()),
  finishedAt: Nullable(Time),
});

export const RunDestinationSchema = Type.Object({
  id: Type.String(),
  channel: Type.String(),
  name: Type.String(),
  disconnected: Type.Boolean({
    description: "true when the destination was disconnected after the run started",
  }),
  breaker: BreakerSchema,
  channelWaitUntil: Nullable(
    Type.String({
      format: "date-time",
      description: "Until when the channel asked us to wait (429, Retry-After)",
    }),
  ),
});

export const RunFailureSchema = Type.Object(
  {
    message: Type.String({ description: "The error, as the channel or the worker gave it" }),
    count: Count,
    cells: Type.Array(
      Type.Object({ productId: Type.String(), destinationAccountId: Type.String() }),
    ),
  },
  { description: "Failed and dead cells grouped by their error message, largest group first" },
);

/** What tells one run from another: who started it, when, and what it published where. */
export const RunHeadSchema = Type.Object({
  id: Type.String(),
  createdAt: Time,
  createdBy: Type.Object({
    type: Type.Enum(["user", "apiKey", "system"]),
    id: Nullable(Type.String()),
    name: Nullable(
      Type.String({
        description: "Who started it: the user's email or the extension key's name",
      }),
    ),
  }),
  productCount: Count,
  destinationCount: Count,
  firstProductTitle: Nullable(
    Type.String({
      description:
        "The first product's title (as it is now, or as it was once deleted): with productCount, what names the run",
    }),
  ),
  destinationNames: Type.Array(Type.String(), {
    description: "The destinations' names, in request order",
  }),
});

export const RunSummarySchema = Type.Object({
  ...RunHeadSchema.properties,
  counts: RunCountsSchema,
  finished: Type.Boolean({ description: "true when no cell is queued or running" }),
});

export const PublishRunSchema = Type.Object({
  ...RunSummarySchema.properties,
  products: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      sku: Nullable(Type.String()),
      deleted: Type.Boolean(),
    }),
  ),
  destinations: Type.Array(RunDestinationSchema),
  cells: Type.Array(RunCellSchema, {
    description: "One per product x destination (at most 500 x 20)",
  }),
  failures: Type.Array(RunFailureSchema),
});

export const PublishRunListQuerySchema = Type.Object(
  { ...PageQuerySchema.properties },
  { additionalProperties: false },
);

export const RetryResultSchema = Type.Object({
  runId: Type.String(),
  retried: Type.Integer({
    minimum: 0,
    description:
      "Cells enqueued again: failed and dead ones whose outcome a retry can change (their failure's `retryable`)",
  }),
  jobs: Type.Array(
    Type.Object({
      jobId: Type.String(),
      productId: Type.String(),
      destinationAccountId: Type.String(),
      syncLogId: Type.String(),
    }),
  ),
});
