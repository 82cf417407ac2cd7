import { publishKeys, type PublishQueues, type RedisClient } from "@catalog/queue";

/**
 * Removes what Redis holds for a disconnected destination: every job of its queue (also one a
 * worker holds, hence `force`), its place on the `ready` set the workers pick from, and the
 * channel wait and breaker shown for it. Harmless to repeat.
 */
export async function clearQueuedWork(queues: PublishQueues, redis: RedisClient, prefix: string, destinationId: string): Promise<void> {
  const keys = publishKeys(prefix);
  await queues.queue(destinationId).obliterate({ force: true });
  await redis.multi().zrem(keys.ready, destinationId).del(keys.wait(destinationId), keys.breaker(destinationId)).exec();
}
