// Password resets by email link: the link carries a random token, the database only its SHA-256.
// A link works once, for a short while, and only the newest one a user asked for works.
import type { Db } from "./client.js";
import { checkPassword } from "./accounts.js";
import { hashPassword, randomToken, sha256 } from "./secrets.js";
import { ServiceError } from "./service-error.js";

export interface PasswordResetIssued {
  /** The token for the link: never stored, sent once by email. */
  token: string;
  email: string;
  expiresAt: Date;
}

/**
 * A reset link's token for the user with this email, the user's older links ended; null when no
 * user has that email (the caller answers the same either way).
 */
export async function issuePasswordReset(
  db: Db,
  email: string,
  ttlSeconds: number,
): Promise<PasswordResetIssued | null> {
  const user = await db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true, email: true },
  });
  if (!user) return null;
  const token = randomToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await db.$transaction([
    db.passwordReset.updateMany({
      where: { userId: user.id, usedAt: null, expiresAt: { gt: now } },
      data: { expiresAt: now },
    }),
    db.passwordReset.create({ data: { userId: user.id, tokenHash: sha256(token), expiresAt } }),
  ]);
  return { token, email: user.email, expiresAt };
}

const UNKNOWN_LINK = "This password reset link is not valid. Ask for a new one.";
const USED_LINK = "This password reset link was already used. Ask for a new one if you need to.";
const EXPIRED_LINK =
  "This password reset link has expired or a newer one was sent. Ask for a new one.";

/** The link's reset when it can still be used; else 400 (unknown) or 410 (used, expired). */
async function usableReset(db: Db, token: string) {
  const reset = await db.passwordReset.findUnique({ where: { tokenHash: sha256(token) } });
  if (!reset) throw new ServiceError(400, UNKNOWN_LINK);
  if (reset.usedAt) throw new ServiceError(410, USED_LINK);
  if (reset.expiresAt.getTime() <= Date.now()) throw new ServiceError(410, EXPIRED_LINK);
  return reset;
}

/**
 * Until when the link's token can set a password (the page it opens says so before the password
 * is typed); 400 or 410 as completePasswordReset.
 */
export async function checkPasswordReset(db: Db, token: string): Promise<{ expiresAt: Date }> {
  const reset = await usableReset(db, token);
  return { expiresAt: reset.expiresAt };
}

/**
 * Sets the password of the user the link's token names, once: the link is used up, every session
 * of the user ends and so do the user's other links. 400 for an unknown token, 410 for a used or
 * expired one, 422 for a password the rules refuse. Returns the user's id.
 */
export async function completePasswordReset(
  db: Db,
  token: string,
  password: string,
): Promise<{ userId: string }> {
  const reset = await usableReset(db, token);
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  const now = new Date();
  await db.$transaction(async (tx) => {
    // Conditional, so two requests with the same link cannot both set a password.
    const { count } = await tx.passwordReset.updateMany({
      where: { id: reset.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count === 0) throw new ServiceError(410, USED_LINK);
    await tx.user.update({ where: { id: reset.userId }, data: { passwordHash } });
    await tx.passwordReset.updateMany({
      where: { userId: reset.userId, usedAt: null, expiresAt: { gt: now } },
      data: { expiresAt: now },
    });
    await tx.session.updateMany({
      where: { userId: reset.userId, revokedAt: null },
      data: { revokedAt: now },
    });
  });
  return { userId: reset.userId };
}
