import { Cluster, Redis, type RedisOptions } from "ioredis";

/** One Redis server, or a Redis Cluster reached through one of its nodes. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: the settings every process reads (REDIS_URL, REDIS_CLUSTER). */
export interface RedisEndpoint {
  REDIS_URL: string;
  REDIS_CLUSTER: boolean;
}

/**
 * For processes that enqueue on behalf of a request (the gateway): commands fail at once when
 * Redis is unreachable, so the request can answer 503 instead of hanging.
 */
export function producerConnection(
  endpoint: RedisEndpoint,
  options: { lazyConnect?: boolean } = {},
): RedisClient {
  const redis = connect(
    endpoint,
    { maxRetriesPerRequest: 1, connectTimeout: 2000, ...options },
    false,
  );
  redis.on("error", () => {
    /* surfaced by the commands that fail and by /readyz */
  });
  return redis;
}

/** For workers: BullMQ's blocking reads must wait through a Redis restart, not give up. */
export function workerConnection(endpoint: RedisEndpoint): RedisClient {
  const redis = connect(endpoint, { maxRetriesPerRequest: null }, true);
  redis.on("error", () => {
    /* BullMQ reconnects; workers report through /readyz */
  });
  return redis;
}

/**
 * A cluster is found from the one node in REDIS_URL; its user, password and TLS apply to every
 * node. Key names are hash-tagged by the deployment's prefix (redisKeyPrefix in @catalog/config),
 * so a deployment's keys share one slot and every multi-key command and script stays legal.
 */
function connect(
  endpoint: RedisEndpoint,
  options: RedisOptions,
  offlineQueue: boolean,
): RedisClient {
  if (!endpoint.REDIS_CLUSTER)
    return new Redis(endpoint.REDIS_URL, { ...options, enableOfflineQueue: offlineQueue });
  const url = new URL(endpoint.REDIS_URL);
  const { lazyConnect, ...nodeOptions } = options;
  return new Cluster(
    [{ host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 6379) }],
    {
      lazyConnect,
      enableOfflineQueue: offlineQueue,
      redisOptions: {
        ...nodeOptions,
        ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
        ...(url.protocol === "rediss:" ? { tls: {} } : {}),
      },
    },
  );
}
