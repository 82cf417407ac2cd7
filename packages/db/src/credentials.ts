import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Keys that encrypt destination credentials (AES-256-GCM). The first key encrypts; every key
 * decrypts, chosen by the id stored beside the ciphertext, so keys can be rotated: add a new
 * key in front, and old credentials stay readable until they are written again.
 */
export interface CredentialKeyring {
  current: { id: string; key: Buffer };
  byId: Map<string, Buffer>;
}

/** Parses `id:base64key[,id:base64key...]` (each key 32 bytes). */
export function parseKeyring(spec: string): CredentialKeyring {
  const entries = spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.indexOf(":");
      const id = entry.slice(0, colon);
      const key = Buffer.from(entry.slice(colon + 1), "base64");
      if (colon < 1 || key.length !== 32)
        throw new Error(
          `credential key "${id || entry.slice(0, 8)}" must be written id:base64 of 32 bytes`,
        );
      return { id, key };
    });
  if (entries.length === 0) throw new Error("no credential key configured");
  return { current: entries[0]!, byId: new Map(entries.map((e) => [e.id, e.key])) };
}

/** A new random key in keyring syntax (for set-up scripts and tests). */
export const newKeyringSpec = (id = "k1"): string => `${id}:${randomBytes(32).toString("base64")}`;

export interface SealedCredentials {
  credentials: string;
  credentialsKeyId: string;
}

export function sealCredentials(
  keyring: CredentialKeyring,
  value: Record<string, unknown>,
): SealedCredentials {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyring.current.key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return {
    credentials: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64"),
    credentialsKeyId: keyring.current.id,
  };
}

export function openCredentials(
  keyring: CredentialKeyring,
  sealed: SealedCredentials,
): Record<string, unknown> {
  const key = keyring.byId.get(sealed.credentialsKeyId);
  if (!key)
    throw new Error(
      `credentials were sealed with key "${sealed.credentialsKeyId}", which is not configured`,
    );
  const raw = Buffer.from(sealed.credentials, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString(
    "utf8",
  );
  return JSON.parse(text) as Record<string, unknown>;
}
