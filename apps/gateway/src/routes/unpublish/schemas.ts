import { Type } from "typebox";

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const UnpublishBodySchema = Type.Object(
  {
    productIds: Type.Array(Id, { minItems: 1, maxItems: 500 }),
    destinationAccountIds: Type.Array(Id, { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);

const Cell = {
  productId: Type.String(),
  destinationAccountId: Type.String(),
};

export const UnpublishResponseSchema = Type.Object({
  accepted: Type.Literal(true),
  jobs: Type.Array(Type.Object({ jobId: Type.String(), ...Cell, syncLogId: Type.String() }), {
    description: "One end per listing live on the store, followed in GET /api/sync-logs",
  }),
  skipped: Type.Array(
    Type.Object({
      ...Cell,
      reason: Type.String({
        description:
          "Why nothing is sent to the channel: not listed there, already ended, an end already pending, a first publish still under way, or never published (then marked ended)",
      }),
    }),
  ),
});
