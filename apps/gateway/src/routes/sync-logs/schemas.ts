import { Type } from "typebox";
import { ListSchema, PageQuerySchema } from "../../schemas/common.js";
import { FailureSchema, SYNC_STATUSES } from "../../schemas/publishing.js";
import { RunHeadSchema } from "../publish-runs/schemas.js";

export const SYNC_KINDS = ["publish", "update", "end"] as const;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const SyncLogSchema = Type.Object({
  id: Type.String(),
  jobId: Type.String({ description: "The queue job id (equal to the sync log id)" }),
  productId: Type.String(),
  destinationAccountId: Type.String(),
  status: Type.Enum([...SYNC_STATUSES], {
    description:
      "queued -> running -> succeeded; failed attempts are retried; dead after the last one",
  }),
  attempts: Type.Integer(),
  error: Nullable(Type.String()),
  failure: FailureSchema,
  remoteId: Nullable(Type.String()),
  remoteUrl: Nullable(Type.String()),
  createdAt: Type.String({ format: "date-time" }),
  startedAt: Nullable(Type.String({ format: "date-time" })),
  finishedAt: Nullable(Type.String({ format: "date-time" })),
  kind: Type.Enum([...SYNC_KINDS], {
    description:
      "publish: list or fully update (a publish, a relist); update: an automatic sync of a change; end: end the listing",
  }),
  trigger: Nullable(
    Type.String({
      description:
        'What caused an automatic update or end ("price changed by import spring.csv", "unpublished by ..."); null for a publish asked for',
    }),
  ),
  note: Nullable(
    Type.String({
      description:
        'What the job did besides a plain publish ("nothing the channel receives changed", "prices and quantities only", "full update")',
    }),
  ),
  runId: Nullable(
    Type.String({
      description:
        "The publish run (GET /api/publish-runs/{id}) this job belongs to; null for automatic updates and ends",
    }),
  ),
});

const SyncStatusSchema = Type.Enum([...SYNC_STATUSES]);

// Ids are checked as UUIDs (422 naming the field) rather than silently matching nothing, so a
// client that passes the wrong value (a SKU, a job name) is told so.
export const SyncLogQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    productId: Type.Optional(Type.String({ format: "uuid" })),
    destinationAccountId: Type.Optional(Type.String({ format: "uuid" })),
    status: Type.Optional(
      Type.Union([SyncStatusSchema, Type.Array(SyncStatusSchema, { minItems: 1, maxItems: 5 })], {
        description:
          "One state, or the parameter repeated for any of several (`status=failed&status=dead`: every publish that did not go through)",
      }),
    ),
    kind: Type.Optional(Type.Enum([...SYNC_KINDS])),
  },
  { additionalProperties: false },
);

/**
 * The list, with whether its total is exact: a list is counted up to 10,000 entries past the
 * page's start (SYNC_LOG_COUNT_LIMIT), so that a busy store's or org's millions are not counted on
 * every page. It brings the heads of the runs its entries belong to, so a client can name each
 * run without asking for it.
 */
export const SyncLogListSchema = Type.Object({
  ...ListSchema(SyncLogSchema).properties,
  totalExact: Type.Boolean({
    description:
      "false when the list holds more than 10,000 entries past this page's start: `total` (and `totalPages`) then count that far, a lower bound that still reaches the next pages",
  }),
  runs: Type.Array(RunHeadSchema, {
    description:
      "The runs this page's entries belong to (`runId`), each once and in no particular order: who started each and what it published where, what names it",
  }),
});
