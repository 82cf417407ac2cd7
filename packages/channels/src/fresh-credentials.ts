// Keeps OAuth access tokens fresh for the adapters that have expiring ones (eBay, Etsy, Amazon):
// shortly before `expiresAt`, and once after the channel refused a token with 401. Every process
// that calls a channel with a store's credentials goes through here (the publish worker's calls,
// the gateway's settings choices). One process refreshes a destination at a time (a Redis lock
// shared by all of them), and every process re-reads PostgreSQL first, because Etsy rotates
// refresh tokens: refreshing twice with the same one would fail the second time.
import {
  loadDestinationTarget,
  replaceDestinationCredentials,
  type CredentialKeyring,
  type Db,
} from "@catalog/db";
import { publishKeys, RedisLock, type RedisClient } from "@catalog/queue";
import type { ChannelAdapter, DestinationTarget } from "./adapter.js";
import { GiveUpChannelError } from "./errors.js";

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

/** A destination as loadDestinationTarget reads it. */
export type LoadedDestination = NonNullable<Awaited<ReturnType<typeof loadDestinationTarget>>>;

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
async function freshCredentials(
  deps: RefreshDeps,
  adapter: ChannelAdapter,
  destination: LoadedDestination,
  signal: AbortSignal,
  refused = false,
): Promise<LoadedDestination | null> {
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

/**
 * One channel call with credentials that are fresh (refreshed shortly before they expire), and
 * once more with refreshed ones when the channel refuses the token with 401. A destination
 * disconnected meanwhile is a give-up.
 */
export async function callWithCredentials<T>(
  deps: RefreshDeps,
  adapter: ChannelAdapter,
  destination: LoadedDestination,
  signal: AbortSignal,
  call: (target: LoadedDestination) => Promise<T>,
): Promise<T> {
  const gone = () =>
    new GiveUpChannelError("the destination was disconnected", {
      channel: destination.channel,
      kind: "validation",
    });
  const target = await freshCredentials(deps, adapter, destination, signal);
  if (!target) throw gone();
  try {
    return await call(target);
  } catch (error) {
    const refused =
      error instanceof GiveUpChannelError && error.kind === "auth" && error.status === 401;
    if (!refused || !adapter.refreshCredentials) throw error;
    const refreshed = await freshCredentials(deps, adapter, target, signal, true);
    if (!refreshed) throw gone();
    return call(refreshed);
  }
}
