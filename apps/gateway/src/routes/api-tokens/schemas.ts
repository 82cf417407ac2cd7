import { Type } from "typebox";
import { API_TOKEN_SCOPES, ENDED_TOKENS_LISTED_DAYS } from "@catalog/db";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: "date-time" });

const ScopeSchema = Type.Enum([...API_TOKEN_SCOPES], {
  description:
    "catalog:read reads products, history and imports; catalog:write edits, deletes and imports; publish publishes, ends listings and follows runs and sync logs; destinations:manage changes and disconnects destinations (both of the last two list destinations and channels)",
});

export const ApiTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({
    description:
      "The 8 characters after `cat_` that begin the token (tokens look like cat_<prefix>_<secret>), to tell tokens apart; the token itself is never shown again",
  }),
  scopes: Type.Array(ScopeSchema),
  createdAt: Time,
  createdBy: Type.String({ description: "The owner who created it, whom the token acts as" }),
  expiresAt: Nullable(Time),
  lastUsedAt: Nullable(Time),
  revokedAt: Nullable(Time),
});

export const ApiTokenListSchema = Type.Object({
  items: Type.Array(ApiTokenSchema, {
    description: `Newest first; revoked and expired tokens stay listed for ${ENDED_TOKENS_LISTED_DAYS} days`,
  }),
});

export const CreateApiTokenBodySchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'What the token is for, e.g. "ERP nightly sync"',
    }),
    scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: 4, uniqueItems: true }),
    expiresAt: Type.Optional(
      Nullable(
        Type.String({
          format: "date-time",
          description: "When the token stops working (in the future); null or left out: never",
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const CreatedApiTokenSchema = Type.Object({
  token: ApiTokenSchema,
  secret: Type.String({
    description:
      "The token itself, shown this once (only its hash is stored): send it as Authorization: Bearer <secret>",
  }),
});
