import { Type } from "typebox";

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const PublishBodySchema = Type.Object(
  {
    productIds: Type.Array(Id, { minItems: 1, maxItems: 500 }),
    destinationAccountIds: Type.Array(Id, { minItems: 1, maxItems: 20 }),
    dryRun: Type.Optional(
      Type.Boolean({
        description:
          "true: check each product x destination against what its channel will demand and answer what would fail and why, creating nothing (no run, no jobs, no sync logs)",
      }),
    ),
    skip: Type.Optional(
      Type.Array(
        Type.Object({ productId: Id, destinationAccountId: Id }, { additionalProperties: false }),
        {
          maxItems: 10_000,
          description:
            'Product x destination pairs to leave out (those a check found would fail: "publish the ones that pass"). Leaving out every pair is 422. A dry run ignores it.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const PublishResponseSchema = Type.Object({
  accepted: Type.Literal(true),
  runId: Type.String({
    description: "The publish run these jobs belong to: follow it at GET /api/publish-runs/{runId}",
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

export const PreflightProblemSchema = Type.Object({
  field: Type.String({
    description:
      "What to fix: a product field as the API names it (title, price, sku, variants.sku, variants.options), " +
      "a destination setting as settings.<name>, or destination for the destination itself",
  }),
  message: Type.String({
    description: "Why the channel would refuse it, in words a person can act on",
  }),
});

/**
 * The answer of a dry run (`dryRun: true`): one item per product x destination, nothing created.
 */
export const PublishCheckSchema = Type.Object({
  dryRun: Type.Literal(true),
  items: Type.Array(
    Type.Object({
      productId: Type.String(),
      destinationAccountId: Type.String(),
      channel: Type.String(),
      ok: Type.Boolean({
        description:
          "true when nothing the service can check stands in the way (the channel may still refuse)",
      }),
      problems: Type.Array(PreflightProblemSchema),
    }),
    { description: "Product-major: each product's destinations in request order" },
  ),
  summary: Type.Object({
    checked: Type.Integer({ description: "Product x destination pairs checked" }),
    ok: Type.Integer(),
    failing: Type.Integer(),
  }),
});
