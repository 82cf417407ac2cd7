// The `state` of a connect flow: single-use (taken with GETDEL), short-lived, and bound to the
// session that started it, so a replayed, expired or foreign callback is refused. Kept in Redis
// because any gateway instance may receive the callback.
import type { RedisClient } from "@catalog/queue";
import { sha256 } from "@catalog/db";
import type { ChannelName } from "@catalog/channels";

/** How long a merchant has to approve on the channel's page. */
export const STATE_TTL_SECONDS = 600;

export interface PendingConnect {
  channel: ChannelName;
  orgId: string;
  /**
   * sha256 of the session id that started the flow: the callback must come with the same session.
   */
  session: string;
  redirectUri: string;
  pending: Record<string, string>;
}

/**
 * A connect finished by the channel's own server (WooCommerce): what the merchant's return shows.
 */
export interface FinishedConnect {
  session: string;
  destinationId: string;
  reconnected: boolean;
}

export function connectStates(redis: RedisClient, prefix: string) {
  const key = (state: string) => `${prefix}:connect:state:${sha256(state)}`;
  const doneKey = (state: string) => `${prefix}:connect:done:${sha256(state)}`;
  const take = async <T>(k: string): Promise<T | null> => {
    const raw = await redis.getdel(k);
    return raw ? (JSON.parse(raw) as T) : null;
  };
  return {
    bindSession: (sessionId: string) => sha256(sessionId),
    async open(state: string, value: PendingConnect): Promise<void> {
      await redis.set(key(state), JSON.stringify(value), "EX", STATE_TTL_SECONDS);
    },
    take: (state: string) => take<PendingConnect>(key(state)),
    async finished(state: string, value: FinishedConnect): Promise<void> {
      await redis.set(doneKey(state), JSON.stringify(value), "EX", STATE_TTL_SECONDS);
    },
    takeFinished: (state: string) => take<FinishedConnect>(doneKey(state)),
  };
}
