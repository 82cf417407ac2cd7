import { Type } from "typebox";
import { ROLES } from "@catalog/db";

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
    role: Type.Enum([...ROLES], {
      description: "member: the org's user. owner: an org's user who also connects, changes and disconnects the org's destinations. " +
        "admin: the platform operator, the only role allowed on /api/system (which spans every org); made with the CLI only, a member in its own org.",
    }),
  }),
  org: Type.Object({ id: Type.String(), name: Type.String() }),
});
