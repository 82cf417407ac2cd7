import { Type } from "typebox";

export const LoginBodySchema = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const SessionSchema = Type.Object({
  user: Type.Object({
    id: Type.String(),
    email: Type.String(),
    role: Type.Union([Type.Literal("member"), Type.Literal("owner"), Type.Literal("admin")], {
      description: "member: the org's user. owner: also manages the org's users, extension keys and destinations. " +
        "admin: the platform operator (the only role on /api/system, which spans every org; created with the CLI only), a member of its own org.",
    }),
  }),
  org: Type.Object({ id: Type.String(), name: Type.String() }),
});
