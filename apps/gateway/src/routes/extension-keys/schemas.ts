import { Type } from "typebox";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: "date-time" });

export const ExtensionKeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({
    description:
      "The 8 characters after `csk_` that begin the key (keys look like csk_<prefix>_<secret>), to tell keys apart; the key itself is never shown again",
  }),
  createdAt: Time,
  lastUsedAt: Nullable(Time),
  revokedAt: Nullable(Time),
});

export const ExtensionKeyListSchema = Type.Object({
  items: Type.Array(ExtensionKeySchema, {
    description: "Newest first; revoked keys are listed (revokedAt set) for 30 days",
  }),
});

export const CreateExtensionKeyBodySchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'What the key is for, e.g. "Ana\'s laptop"',
    }),
  },
  { additionalProperties: false },
);

export const CreatedExtensionKeySchema = Type.Object({
  key: ExtensionKeySchema,
  secret: Type.String({
    description:
      "The key itself, shown this once (only its hash is stored): put it in the extension's settings",
  }),
});
