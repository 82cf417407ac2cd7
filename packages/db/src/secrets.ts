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
