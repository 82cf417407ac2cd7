import { Type } from "typebox";

export const LoginBodySchema = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

/**
 * The same names as the database's Role enum (routes/auth/index.ts checks that at compile time).
 */
export const ROLE_NAMES = ["member", "owner", "admin"] as const;

export const SessionSchema = Type.Object({
  user: Type.Object({
    id: Type.String(),
    email: Type.String(),
    role: Type.Enum([...ROLE_NAMES], {
      description:
        "member: the org's user. owner: an org's user who also connects, changes and disconnects the org's destinations. " +
        "admin: the platform operator, the only role allowed on /api/system (which spans every org); made with the CLI only, a member in its own org.",
    }),
  }),
  org: Type.Object({ id: Type.String(), name: Type.String() }),
});

export const PasswordResetRequestSchema = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 320 }) },
  { additionalProperties: false },
);

export const PasswordResetCheckSchema = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The token of the emailed link",
    }),
  },
  { additionalProperties: false },
);

export const PasswordResetUsableSchema = Type.Object(
  { expiresAt: Type.String({ format: "date-time", description: "Until when the link works" }) },
  { additionalProperties: false },
);

export const PasswordResetConfirmSchema = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The token of the emailed link",
    }),
    password: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: "The new password (at least 10 characters)",
    }),
  },
  { additionalProperties: false },
);

export const PasswordResetRequestedSchema = Type.Object(
  {
    message: Type.String({ description: "What happens next, in words for the person" }),
    linkValidMinutes: Type.Integer({ description: "How long an emailed link works" }),
  },
  { additionalProperties: false },
);

export const PasswordResetAnswerSchema = Type.Object(
  { message: Type.String({ description: "What happens next, in words for the person" }) },
  { additionalProperties: false },
);
