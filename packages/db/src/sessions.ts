import type { Db } from "./client.js";
import type { Role } from "./generated/enums.js";
import { hashPassword, randomToken, sha256, verifyPassword } from "./secrets.js";

export interface SessionPrincipal {
  sessionId: string;
  expiresAt: Date;
  user: { id: string; email: string; role: Role };
  org: { id: string; name: string };
}

// Verified when the email is unknown, so that a wrong email costs as long as a wrong password
// and response times do not reveal which emails exist.
let dummyHash: Promise<string> | undefined;

/** Checks the credentials and opens a session; returns its token (for the cookie) or null. */
export async function openSession(
  db: Db,
  email: string,
  password: string,
  ttlSeconds: number,
): Promise<{ token: string; principal: SessionPrincipal } | null> {
  const user = await db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    include: { org: true },
  });
  const ok = await verifyPassword(
    user?.passwordHash ?? (await (dummyHash ??= hashPassword(randomToken()))),
    password,
  );
  if (!user || !ok) return null;
  const token = randomToken();
  const session = await db.session.create({
    data: {
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    },
  });
  return {
    token,
    principal: {
      sessionId: session.id,
      expiresAt: session.expiresAt,
      user: { id: user.id, email: user.email, role: user.role },
      org: { id: user.org.id, name: user.org.name },
    },
  };
}

/** The live session for a cookie token, or null when unknown, expired or revoked. */
export async function findSession(db: Db, token: string): Promise<SessionPrincipal | null> {
  const session = await db.session.findUnique({
    where: { tokenHash: sha256(token) },
    include: { user: { include: { org: true } } },
  });
  if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
  const { user } = session;
  return {
    sessionId: session.id,
    expiresAt: session.expiresAt,
    user: { id: user.id, email: user.email, role: user.role },
    org: { id: user.org.id, name: user.org.name },
  };
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.session.updateMany({
    where: { id: sessionId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
