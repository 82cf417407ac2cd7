import { ServiceError, type Db } from "@catalog/db";
import {
  readBreakers,
  readChannelWaits,
  readQueueCounts,
  type BreakerSnapshot,
  type BreakerStateName,
  type ChannelWait,
  type RedisClient,
} from "@catalog/queue";

/**
 * Whether a destination is paused, and until when: its breaker and the wait its channel asked for.
 */
export interface DestinationSignals {
  breaker: { state: BreakerStateName; openedAt: string | null; retryAt: string | null };
  channelWait: { until: string; channel: string; reason: string } | null;
}

/** What /api/destinations and /api/system show about one destination besides its row. */
export interface DestinationStatus extends DestinationSignals {
  queue: { waiting: number; active: number; delayed: number; failed: number; dead: number };
}

// Bounds one Redis pipeline (5 commands per destination for the counts) and one IN (...) list, so
// an operator's view over every org's destinations stays a few round trips, not one per
// destination.
const BATCH = 500;

/**
 * Queue and breaker state live in Redis only: without it they cannot be shown (503, not a generic
 * 500).
 */
export class RedisUnavailable extends ServiceError {
  constructor(cause: unknown) {
    super(
      503,
      "Redis is unreachable, so queue and breaker state cannot be read; try again shortly",
    );
    this.cause = cause;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const toSignals = (
  breaker: BreakerSnapshot | undefined,
  wait: ChannelWait | undefined,
): DestinationSignals => ({
  breaker: {
    state: breaker?.state ?? "closed",
    openedAt: iso(breaker?.openedAt ?? null),
    retryAt: iso(breaker?.retryAt ?? null),
  },
  channelWait: wait
    ? { until: new Date(wait.until).toISOString(), channel: wait.channel, reason: wait.reason }
    : null,
});

/**
 * Breakers and channel waits only (two pipelined reads, no queue depths, no database): cheap
 * enough for a view that is re-read every second, such as a publish run followed live.
 */
export async function readDestinationSignals(
  redis: RedisClient,
  prefix: string,
  ids: string[],
): Promise<Map<string, DestinationSignals>> {
  const [breakers, waits] = await Promise.all([
    readBreakers(redis, prefix, ids),
    readChannelWaits(redis, prefix, ids),
  ]).catch((cause: unknown) => {
    throw new RedisUnavailable(cause);
  });
  return new Map(ids.map((id) => [id, toSignals(breakers.get(id), waits.get(id))]));
}

/**
 * Breakers, channel waits and queue depths from Redis (each a pipelined read per batch), and
 * dead publishes from PostgreSQL (the record), in one grouped query per batch.
 */
export async function readDestinationStatuses(
  db: Db,
  redis: RedisClient,
  prefix: string,
  ids: string[],
): Promise<Map<string, DestinationStatus>> {
  const out = new Map<string, DestinationStatus>();
  for (let start = 0; start < ids.length; start += BATCH) {
    const batch = ids.slice(start, start + BATCH);
    const [[breakers, waits, counts], dead] = await Promise.all([
      Promise.all([
        readBreakers(redis, prefix, batch),
        readChannelWaits(redis, prefix, batch),
        readQueueCounts(redis, prefix, batch),
      ]).catch((cause: unknown) => {
        throw new RedisUnavailable(cause);
      }),
      countDeadByDestination(db, batch),
    ]);
    for (const id of batch) {
      const queue = counts.get(id) ?? { waiting: 0, active: 0, delayed: 0, failed: 0 };
      out.set(id, {
        ...toSignals(breakers.get(id), waits.get(id)),
        queue: { ...queue, dead: dead.get(id) ?? 0 },
      });
    }
  }
  return out;
}

// The two queries below belong in @catalog/db beside listDestinations/countDead; they live here
// until that package grows them (the gateway should not otherwise query tables directly).

/** Dead sync logs per destination, in one grouped query. */
async function countDeadByDestination(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.syncLog.groupBy({
    by: ["destinationAccountId"],
    where: { status: "dead", destinationAccountId: { in: ids } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.destinationAccountId, r._count._all]));
}

/**
 * Every org's connected destinations, oldest first (by name within one millisecond): the
 * operator's view in /api/system.
 */
export async function allConnectedDestinationIds(db: Db): Promise<string[]> {
  const rows = await db.destinationAccount.findMany({
    where: { disconnectedAt: null },
    orderBy: [{ connectedAt: "asc" }, { name: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * Whether the id names a destination of any org, connected or not (admin actions may target
 * either).
 */
export async function destinationExists(db: Db, id: string): Promise<boolean> {
  return (await db.destinationAccount.count({ where: { id } })) > 0;
}
