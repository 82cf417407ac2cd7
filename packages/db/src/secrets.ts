import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

// Argon2id with OWASP's recommended minimum (19 MiB, 2 passes): memory-hard, so offline
// guessing of a leaked hash is costly. Parameters live in the encoded hash, so raising them
// later keeps old hashes verifiable.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

export async function verifyPassword(encoded: string, password: string): Promise<boolean> {
  try {
    return await verify(encoded, password);
  } catch {
    return false;
  }
}

/** A random, URL-safe token with 256 bits of entropy. */
export const randomToken = (): string => randomBytes(32).toString("base64url");

/** Tokens and keys have full entropy, so a fast hash is enough to keep them unusable if leaked. */
export const sha256 = (value: string): string => createHash("sha256").update(value).digest("hex");

/**
 * A credential a client sends as it is, `<kind>_<prefix>_<secret>`: the prefix (8 characters)
 * names it in listings, only the SHA-256 of the whole is stored. Extension keys (`csk`) and
 * organisation API tokens (`cat`) are made this one way.
 */
export function newCredential(kind: string): { prefix: string; value: string; hash: string } {
  const prefix = randomToken().replace(/[-_]/g, "").slice(0, 8);
  const value = `${kind}_${prefix}_${randomToken()}`;
  return { prefix, value, hash: sha256(value) };
}

/** A credential's `lastUsedAt` is kept to the minute: a busy client does not write on every request. */
export const LAST_USED_PRECISION_MS = 60_000;

/**
 * When a credential last used at `lastUsedAt` should record a use at `now`, the condition its
 * conditional update carries (so concurrent requests on several gateways write it once a minute);
 * null when the recorded use is recent enough.
 */
export function staleLastUse(
  lastUsedAt: Date | null,
  now: number,
): { OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: Date } }] } | null {
  if (lastUsedAt && now - lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return null;
  return {
    OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - LAST_USED_PRECISION_MS) } }],
  };
}
