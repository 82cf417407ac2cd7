import { Type } from "typebox";

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const PublishBodySchema = Type.Object({
  productIds: Type.Array(Id, { minItems: 1, maxItems: 500 }),
  destinationAccountIds: Type.Array(Id, { minItems: 1, maxItems: 20 }),
}, { additionalProperties: false });

export const PublishResponseSchema = Type.Object({
  accepted: Type.Literal(true),
  runId: Type.String({ description: "The publish run these jobs belong to: follow it at GET /api/publish-runs/{runId}" }),
  jobs: Type.Array(Type.Object({
    jobId: Type.String(), productId: Type.String(), destinationAccountId: Type.String(), syncLogId: Type.String(),
  })),
});
