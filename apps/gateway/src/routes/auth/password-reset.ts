// Password reset by email link. Asking answers 202 alike whether or not the address has an account
// (the mail goes out after the answer, so its time says nothing either), limited per client
// address and per email; choosing the new password with the link's token ends every session.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { RedisClient } from "@catalog/queue";
import {
  checkPasswordReset,
  completePasswordReset,
  issuePasswordReset,
  type Db,
} from "@catalog/db";
import { SESSION_COOKIE } from "../../plugins/auth.js";
import { describedError, errorResponses } from "../../schemas/common.js";
import type { Mailer } from "../../mail/mailer.js";
import { passwordResetMail } from "../../mail/password-reset-mail.js";
import { accountKey } from "./login-limiter.js";
import { reserveBudgets, type Budget } from "./request-budgets.js";
import {
  PasswordResetAnswerSchema,
  PasswordResetCheckSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  PasswordResetRequestedSchema,
  PasswordResetUsableSchema,
} from "./schemas.js";

export interface PasswordResetRoutesOptions {
  db: Db;
  mailer: Mailer;
  /** The dashboard's address, which the emailed link opens (PUBLIC_URL). */
  publicUrl: string;
  ttlSeconds: number;
  redis: RedisClient;
  redisPrefix: string;
  budgets: { perEmail: Budget; perAddress: Budget };
}

export const REQUESTED_MESSAGE =
  "If an account uses this email address, a link to choose a new password is on its way.";
export const CHANGED_MESSAGE = "Your password was changed and every session of yours has ended.";

/** The dashboard's page for a link's token. */
export const resetLink = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, "")}/reset-password?token=${encodeURIComponent(token)}`;

export const passwordResetRoutes: FastifyPluginAsyncTypebox<PasswordResetRoutesOptions> = async (
  app,
  options,
) => {
  const { db, mailer, budgets } = options;
  const tags = ["auth"];

  app.post(
    "/auth/password-reset",
    {
      schema: {
        tags,
        operationId: "requestPasswordReset",
        security: [],
        summary: "Emails a link to choose a new password",
        description:
          "Answers 202 whether or not an account uses the address, and sends the email (when mail is configured) after answering. " +
          "The link works once and for a short while (PASSWORD_RESET_TTL_SECONDS); asking again ends the earlier links. " +
          "Limited per client address and per email address (429 with Retry-After).",
        body: PasswordResetRequestSchema,
        response: {
          202: PasswordResetRequestedSchema,
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      await reserveBudgets(
        options.redis,
        request.log,
        [
          {
            key: `${options.redisPrefix}:password-resets:address:${request.ip}`,
            budget: budgets.perAddress,
            whose: "from this address",
          },
          {
            key: `${options.redisPrefix}:password-resets:account:${accountKey(email)}`,
            budget: budgets.perEmail,
            whose: "for this email address",
          },
        ],
        "password reset requests",
      );
      const issued = await issuePasswordReset(db, email, options.ttlSeconds);
      if (issued)
        mailer.send(
          "password reset",
          passwordResetMail({
            to: issued.email,
            link: resetLink(options.publicUrl, issued.token),
            ttlSeconds: options.ttlSeconds,
          }),
        );
      return reply.code(202).send({
        message: REQUESTED_MESSAGE,
        linkValidMinutes: Math.round(options.ttlSeconds / 60),
      });
    },
  );

  const deadLinkResponses = {
    400: describedError("The link's token is unknown"),
    410: describedError("The link was already used, has expired or a newer one was sent"),
  };

  app.post(
    "/auth/password-reset/check",
    {
      schema: {
        tags,
        operationId: "checkPasswordReset",
        security: [],
        summary: "Whether an emailed link can still set a password, and until when",
        description: "Changes nothing: the page the link opens asks before the password is typed.",
        body: PasswordResetCheckSchema,
        response: { 200: PasswordResetUsableSchema, ...deadLinkResponses },
      },
    },
    async (request) => {
      const { expiresAt } = await checkPasswordReset(db, request.body.token);
      return { expiresAt: expiresAt.toISOString() };
    },
  );

  app.post(
    "/auth/password-reset/confirm",
    {
      schema: {
        tags,
        operationId: "confirmPasswordReset",
        security: [],
        summary: "Sets a new password with an emailed link's token",
        description:
          "Sets the password, uses up the link and ends every session of the user (this browser's cookie is cleared too).",
        body: PasswordResetConfirmSchema,
        response: {
          200: PasswordResetAnswerSchema,
          ...deadLinkResponses,
          422: describedError("The password breaks the rules (at least 10 characters)"),
        },
      },
    },
    async (request, reply) => {
      await completePasswordReset(db, request.body.token, request.body.password);
      await app.caches.sessionEnded();
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return { message: CHANGED_MESSAGE };
    },
  );
};
