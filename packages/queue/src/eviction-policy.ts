import { ReplyError, type Redis } from "ioredis";
import type { RedisClient } from "./connections.js";

/** Where the start-up check reports: a pino logger fits. */
export interface StartupLog {
  info(message: string): void;
  warn(message: string): void;
}

export class EvictionPolicyError extends Error {}

const WAIT_MS = 2_000;

/**
 * The node's maxmemory-policy from `INFO memory` (managed services that forbid CONFIG still
 * answer INFO), else from `CONFIG GET`; null when the server refuses both (an ACL, a renamed
 * command): it answered, but would not say.
 */
async function readPolicy(node: Redis): Promise<string | null> {
  const refused = (error: unknown) => {
    if (error instanceof ReplyError) return null;
    throw error;
  };
  const info = await node.info("memory").catch(refused);
  const fromInfo = info && /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (fromInfo) return fromInfo;
  const config = await node.config("GET", "maxmemory-policy").catch(refused);
  return config?.[1] ?? null;
}

const nodesOf = async (redis: RedisClient): Promise<Redis[]> => {
  // A connection still being made (the gateway's queues no command meanwhile) gets a moment first.
  if (redis.status !== "ready")
    await Promise.race([
      new Promise((ready) => redis.once("ready", ready)),
      new Promise((later) => setTimeout(later, WAIT_MS)),
    ]);
  if (!("nodes" in redis)) return [redis];
  const masters = redis.nodes("master");
  if (masters.length === 0) throw new Error("no Redis Cluster master known yet");
  return masters;
};

/**
 * Refuses to go on unless every Redis node this process uses evicts nothing when full
 * (`maxmemory-policy noeviction`): BullMQ's jobs and the pipeline's locks are keys that an
 * evicting Redis would silently drop. Waits (with a log line every 2 s) while Redis cannot be
 * reached; a server that refuses to tell its policy (INFO and CONFIG both forbidden) gets a
 * warning and the process starts: the operator is asked to make sure of it.
 */
export async function requireNoEviction(redis: RedisClient, log: StartupLog): Promise<void> {
  for (;;) {
    try {
      for (const node of await nodesOf(redis)) {
        const policy = await readPolicy(node);
        const where = `${node.options.host ?? "redis"}:${node.options.port ?? 6379}`;
        if (policy === null) {
          log.warn(
            `Redis at ${where} does not say its maxmemory-policy (INFO and CONFIG refused): make sure it is noeviction, or queued jobs and locks can be evicted when it is full`,
          );
        } else if (policy !== "noeviction") {
          throw new EvictionPolicyError(
            `Redis at ${where} has maxmemory-policy ${policy}: it must be noeviction, or it drops queued jobs and locks when it is full. Set maxmemory-policy noeviction (redis.conf, or your managed Redis's parameter group) and start again`,
          );
        }
      }
      return;
    } catch (error) {
      if (error instanceof EvictionPolicyError) throw error;
      log.info(
        `waiting for Redis to check its maxmemory-policy: ${(error as Error).message.split("\n")[0]}`,
      );
      await new Promise((retry) => setTimeout(retry, WAIT_MS));
    }
  }
}
