import { ServiceError } from "@catalog/db";
import { readChannelWaits, type RedisClient } from "@catalog/queue";

/**
 * Refuses (429, with Retry-After) a publish to destinations whose channel asked us to wait,
 * naming the channel and the longest wait: publishing now would only spend attempts. Used by
 * a publish and by a run's retry alike.
 */
export async function assertNoChannelWait(
  redis: RedisClient,
  prefix: string,
  destinationIds: string[],
): Promise<void> {
  const waits = await readChannelWaits(redis, prefix, destinationIds);
  const longest = [...waits.entries()].sort((a, b) => b[1].until - a[1].until)[0];
  if (!longest) return;
  const [destinationId, wait] = longest;
  const seconds = Math.max(1, Math.ceil((wait.until - Date.now()) / 1000));
  throw new ServiceError(
    429,
    `${wait.channel} asked to wait before more publishing to destination ${destinationId}: try again in ${seconds} s ` +
      `(until ${new Date(wait.until).toISOString()}); this is the channel's limit, not the service's`,
    { "retry-after": String(seconds) },
  );
}
