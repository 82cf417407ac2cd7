import type { Db } from "./client.js";
import { isUuid } from "./ids.js";
import { newCredential, sha256, staleLastUse } from "./secrets.js";
import { invalid, notFound } from "./service-error.js";
import type { SessionPrincipal } from "./sessions.js";

/**
 * What an organisation API token may do. Which routes each opens is the gateway's table
 * (`apps/gateway/src/plugins/token-scopes.ts`).
 */
export const API_TOKEN_SCOPES = [
  "catalog:read",
  "catalog:write",
  "publish",
  "destinations:manage",
] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const isApiTokenScope = (value: string): value is ApiTokenScope =>
  (API_TOKEN_SCOPES as readonly string[]).includes(value);

/** A token as its org's owners see it: never the token, only its prefix. */
export interface ApiTokenView {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiTokenScope[];
  createdAt: string;
  createdBy: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const MAX_NAME = 100;
/** How long a revoked or expired token stays listed, so its owners can see what became of it. */
export const ENDED_TOKENS_LISTED_DAYS = 30;

const withCreator = { createdBy: { select: { email: true } } } as const;

const toView = (row: {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  createdBy: { email: string };
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiTokenView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes.filter(isApiTokenScope),
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy.email,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/**
 * Creates a token `cat_<prefix>_<secret>` acting as `userId` (an owner) in its org within
 * `scopes`; returns it this once beside its view. Only its SHA-256 is stored.
 */
export async function createApiToken(
  db: Db,
  input: {
    orgId: string;
    userId: string;
    name: string;
    scopes: readonly string[];
    expiresAt?: Date | null;
  },
): Promise<{ token: string; view: ApiTokenView }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_NAME)
    throw invalid(`name must be 1 to ${MAX_NAME} characters`);
  const unknown = input.scopes.filter((scope) => !isApiTokenScope(scope));
  if (unknown.length > 0 || input.scopes.length === 0)
    throw invalid(
      `scopes must name at least one of ${API_TOKEN_SCOPES.join(", ")}${unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""}`,
    );
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
    throw invalid("expiresAt must be in the future");
  const { prefix, value, hash } = newCredential("cat");
  const row = await db.apiToken.create({
    data: {
      orgId: input.orgId,
      createdById: input.userId,
      name,
      prefix,
      tokenHash: hash,
      scopes: [...new Set(input.scopes)],
      expiresAt: input.expiresAt ?? null,
    },
    include: withCreator,
  });
  return { token: value, view: toView(row) };
}

/** The org's tokens, newest first: live ones and those revoked or expired in the last 30 days. */
export async function listApiTokens(db: Db, orgId: string): Promise<ApiTokenView[]> {
  const since = new Date(Date.now() - ENDED_TOKENS_LISTED_DAYS * 24 * 3600 * 1000);
  const rows = await db.apiToken.findMany({
    where: {
      orgId,
      AND: [
        { OR: [{ revokedAt: null }, { revokedAt: { gte: since } }] },
        { OR: [{ expiresAt: null }, { expiresAt: { gte: since } }] },
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: withCreator,
  });
  return rows.map(toView);
}

export async function revokeApiToken(db: Db, orgId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(`active API token ${id}`);
  const { count } = await db.apiToken.updateMany({
    where: { id, orgId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw notFound(`active API token ${id}`);
}

/** Who a request with a valid token acts as, and what the token may do. */
export interface TokenPrincipal extends SessionPrincipal {
  token: { id: string; name: string; scopes: ApiTokenScope[] };
}

/**
 * The principal of a bearer token, or null when it is unknown, revoked, expired, or its creator
 * is no longer an owner of its org. Read from PostgreSQL on every request (one unique-index
 * lookup), so a revocation counts on the next request on every gateway. `sessionId` names the
 * credential (`token:<id>`), so per-session budgets count a token as one session.
 */
export async function authenticateApiToken(db: Db, token: string): Promise<TokenPrincipal | null> {
  const row = await db.apiToken.findUnique({
    where: { tokenHash: sha256(token) },
    include: {
      createdBy: { select: { id: true, email: true, role: true, orgId: true } },
      org: { select: { id: true, name: true } },
    },
  });
  const now = Date.now();
  if (
    !row ||
    row.revokedAt ||
    (row.expiresAt && row.expiresAt.getTime() <= now) ||
    row.createdBy.role !== "owner" ||
    row.createdBy.orgId !== row.orgId
  )
    return null;
  const stale = staleLastUse(row.lastUsedAt, now);
  if (stale)
    await db.apiToken.updateMany({
      where: { id: row.id, ...stale },
      data: { lastUsedAt: new Date(now) },
    });
  const { createdBy: user } = row;
  return {
    sessionId: `token:${row.id}`,
    expiresAt: row.expiresAt ?? new Date(8.64e15),
    user: { id: user.id, email: user.email, role: user.role },
    org: row.org,
    token: { id: row.id, name: row.name, scopes: row.scopes.filter(isApiTokenScope) },
  };
}
