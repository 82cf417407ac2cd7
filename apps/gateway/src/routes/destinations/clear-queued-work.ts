import type { Queue } from "bullmq";
import { publishKeys, type PublishQueues, type RedisClient } from "@catalog/queue";

/**
 * Removes what Redis holds for a disconnected destination: every job of its queue (also one a
 * worker holds, hence `force`), its place on the `ready` set the workers pick from, and the
 * channel wait and breaker shown for it. Harmless to repeat, also at the same time.
 */
export async function clearQueuedWork(
  queues: PublishQueues,
  redis: RedisClient,
  prefix: string,
  destinationId: string,
): Promise<void> {
  const keys = publishKeys(prefix);
  await obliterate(queues.queue(destinationId));
  await redis
    .multi()
    .zrem(keys.ready, destinationId)
    .del(keys.wait(destinationId), keys.breaker(destinationId))
    .exec();
}

/** BullMQ's refusal to obliterate a queue whose pause flag is not set. */
const NOT_PAUSED = "Cannot obliterate non-paused queue";

/**
 * Queue.obliterate pauses the queue, then deletes it with a script that requires the pause flag.
 * A disconnect of the same destination at the same moment (a second DELETE, another gateway) can
 * delete the whole queue, the flag with it, in between: BullMQ then refuses, although the queue
 * is already gone. Obliterating again pauses and deletes what is left (nothing, or what was added
 * since). Each refusal follows another obliteration's success, so three attempts are plenty.
 */
async function obliterate(queue: Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await queue.obliterate({ force: true });
      return;
    } catch (error) {
      if (attempt === 3 || !(error instanceof Error) || error.message !== NOT_PAUSED) throw error;
    }
  }
}
