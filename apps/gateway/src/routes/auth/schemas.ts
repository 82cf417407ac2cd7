import { Type } from "typebox";

export const LoginBodySchema = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const SessionSchema = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String(), role: Type.Union([Type.Literal("member"), Type.Literal("admin")]) }),
  org: Type.Object({ id: Type.String(), name: Type.String() }),
});
