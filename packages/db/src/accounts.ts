import type { Db } from "./client.js";
import { isUniqueViolation } from "./client.js";
import { Role } from "./generated/enums.js";
import { isUuid } from "./ids.js";
import { hashPassword, newCredential, sha256, staleLastUse } from "./secrets.js";
import { conflict, invalid, notFound } from "./service-error.js";

export interface OrgView {
  id: string;
  name: string;
}

export interface UserView {
  id: string;
  email: string;
  role: Role;
  orgId: string;
}

export const ROLES: readonly Role[] = Object.values(Role);

/** What each role may do, as operators are told (CLI usage, the demo seed's logins). */
export const ROLE_DUTIES: Record<Role, string> = {
  member: "reads, imports and publishes the org's catalog",
  owner: "a member who also connects, changes and disconnects the org's destinations",
  admin: "the platform operator: /api/system over every org; in its own org, a member",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

/** The one password rule, wherever a password is chosen (a new user, a reset). */
export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw invalid(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
}

export async function createOrg(db: Db, name: string): Promise<OrgView> {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200)
    throw invalid("org name must be 1 to 200 characters");
  try {
    const org = await db.org.create({ data: { name: trimmed } });
    return { id: org.id, name: org.name };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`an org named "${trimmed}" already exists`);
    throw error;
  }
}

/** Finds an org by id or by exact name. */
export async function findOrg(db: Db, idOrName: string): Promise<OrgView> {
  const org = await db.org.findFirst({
    where: isUuid(idOrName) ? { id: idOrName } : { name: idOrName },
  });
  if (!org) throw notFound(`org "${idOrName}"`);
  return { id: org.id, name: org.name };
}

export async function createUser(
  db: Db,
  input: { orgId: string; email: string; password: string; role: Role },
): Promise<UserView> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalid(`"${input.email}" is not an email address`);
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await db.user.create({
      data: { orgId: input.orgId, email, passwordHash, role: input.role },
    });
    return { id: user.id, email: user.email, role: user.role, orgId: user.orgId };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`a user with email ${email} already exists`);
    throw error;
  }
}

/** An extension key as its org sees it: never the key, only its prefix. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedApiKey extends ApiKeyView {
  /** The key itself: shown once, never stored. */
  key: string;
}

const toApiKeyView = (row: {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/** Keys look like `csk_<8 chars>_<secret>`; the prefix identifies a key in listings and logs. */
export async function createApiKey(db: Db, orgId: string, name: string): Promise<CreatedApiKey> {
  const { prefix, value, hash } = newCredential("csk");
  const row = await db.apiKey.create({
    data: { orgId, name: name.trim() || "default", prefix, keyHash: hash },
  });
  return { ...toApiKeyView(row), key: value };
}

/** How long a revoked key stays listed, so its owner can see it was revoked and when. */
export const REVOKED_KEYS_LISTED_DAYS = 30;

/** The org's keys, newest first: active ones and those revoked in the last 30 days. */
export async function listApiKeys(db: Db, orgId: string): Promise<ApiKeyView[]> {
  const since = new Date(Date.now() - REVOKED_KEYS_LISTED_DAYS * 24 * 3600 * 1000);
  const rows = await db.apiKey.findMany({
    where: { orgId, OR: [{ revokedAt: null }, { revokedAt: { gte: since } }] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toApiKeyView);
}

export async function revokeApiKey(db: Db, orgId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(`active API key ${id}`);
  const { count } = await db.apiKey.updateMany({
    where: { id, orgId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw notFound(`active API key ${id}`);
}

/** The org and key an extension's key acts for (it has passed authenticateApiKey). */
export async function describeApiKey(
  db: Db,
  keyId: string,
): Promise<{
  org: { id: string; name: string };
  key: { id: string; name: string; prefix: string };
}> {
  const row = await db.apiKey.findUniqueOrThrow({
    where: { id: keyId },
    include: { org: { select: { id: true, name: true } } },
  });
  return { org: row.org, key: { id: row.id, name: row.name, prefix: row.prefix } };
}

/**
 * The org an API key acts for, or null for an unknown or revoked key (read on every request, so a
 * revocation counts at once).
 */
export async function authenticateApiKey(
  db: Db,
  key: string,
): Promise<{ id: string; orgId: string } | null> {
  const row = await db.apiKey.findUnique({
    where: { keyHash: sha256(key) },
    select: { id: true, orgId: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  const stale = staleLastUse(row.lastUsedAt, now);
  if (stale)
    await db.apiKey.updateMany({
      where: { id: row.id, ...stale },
      data: { lastUsedAt: new Date(now) },
    });
  return { id: row.id, orgId: row.orgId };
}
