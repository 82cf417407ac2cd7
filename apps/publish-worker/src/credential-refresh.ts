// Keeps OAuth access tokens fresh for the adapters that have expiring ones (eBay, Etsy): shortly
// before `expiresAt`, and once after the channel refused a token with 401. One process refreshes
// a destination at a time (a Redis lock), and every process re-reads PostgreSQL first, because
// Etsy rotates refresh tokens: refreshing twice with the same one would fail the second time.
import type { ChannelAdapter, DestinationTarget } from "@catalog/channels";
import {
  loadDestinationTarget,
  replaceDestinationCredentials,
  type CredentialKeyring,
  type Db,
} from "@catalog/db";
import { publishKeys, type RedisClient } from "@catalog/queue";
import { RedisLock } from "./redis-lock.js";

/**
 * Refresh this long before the token would expire, so a publish never starts with a dying token.
 */
const REFRESH_MARGIN_MS = 5 * 60_000;
const LOCK_WAIT_STEP_MS = 100;

export interface RefreshDeps {
  db: Db;
  redis: RedisClient;
  prefix: string;
  keyring: CredentialKeyring;
  /** Budget of one refresh; the lock lives a little longer. */
  channelTimeoutMs: number;
}

type Loaded = NonNullable<Awaited<ReturnType<typeof loadDestinationTarget>>>;

const accessTokenOf = (d: DestinationTarget) => d.credentials.accessToken;

function expiresSoon(destination: DestinationTarget, now = Date.now()): boolean {
  const expiresAt = destination.credentials.expiresAt;
  return typeof expiresAt === "number" && expiresAt - now < REFRESH_MARGIN_MS;
}

/**
 * The destination with usable credentials: as given when they are not about to expire (and
 * `refused` is false), else refreshed, by this process or by the one that held the lock.
 * `refused`: the channel just answered 401 to these credentials. Null when the destination was
 * disconnected meanwhile.
 */
export async function freshCredentials(
  deps: RefreshDeps,
  adapter: ChannelAdapter,
  destination: Loaded,
  signal: AbortSignal,
  refused = false,
): Promise<Loaded | null> {
  if (!adapter.refreshCredentials || (!refused && !expiresSoon(destination))) return destination;
  const key = publishKeys(deps.prefix).refresh(destination.id);
  const deadline = Date.now() + deps.channelTimeoutMs;
  let lock: RedisLock | null = null;
  try {
    while (!(lock = await RedisLock.acquire(deps.redis, key, deps.channelTimeoutMs + 1_000))) {
      if (Date.now() > deadline || signal.aborted) break;
      await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_STEP_MS));
    }
    // Whoever refreshed while we waited has stored new credentials: use them when they differ.
    const current = await loadDestinationTarget(deps.db, deps.keyring, destination.id);
    if (!current) return null;
    const changed = accessTokenOf(current) !== accessTokenOf(destination);
    if ((changed && !expiresSoon(current)) || !lock) return current;
    const credentials = await adapter.refreshCredentials(current, signal);
    if (!(await replaceDestinationCredentials(deps.db, deps.keyring, current.id, credentials)))
      return null;
    return { ...current, credentials };
  } finally {
    await lock?.release().catch(() => {});
  }
}
