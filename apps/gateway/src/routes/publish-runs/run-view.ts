import type { RedisClient } from "@catalog/queue";
import type { Static } from "typebox";
import { countCells, getPublishRun, isFinished, type Db, type RunCell } from "@catalog/db";
import { readDestinationSignals } from "../../destination-status.js";
import type { PublishRunSchema, RunFailureSchema } from "./schemas.js";

export type PublishRunView = Static<typeof PublishRunSchema>;
type Failure = Static<typeof RunFailureSchema>;

/** What a cell without an error message is grouped under. */
const NO_MESSAGE = "failed without an error message";

/**
 * Failed and dead cells grouped by their message, the largest group first (then by message, so the
 * order is stable).
 */
export function groupFailures(cells: RunCell[]): Failure[] {
  const groups = new Map<string, Failure>();
  for (const cell of cells) {
    if (cell.status !== "failed" && cell.status !== "dead") continue;
    const message = cell.error?.trim() || NO_MESSAGE;
    let group = groups.get(message);
    if (!group) groups.set(message, (group = { message, count: 0, cells: [] }));
    group.count += 1;
    group.cells.push({
      productId: cell.productId,
      destinationAccountId: cell.destinationAccountId,
    });
  }
  return [...groups.values()].sort(
    (a, b) => b.count - a.count || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/**
 * The whole run as a client shows it: products and destinations in request order (each
 * destination with its breaker and channel wait, read from Redis), the cells in that order too,
 * their counts and the failures grouped.
 */
export async function loadRunView(
  db: Db,
  redis: RedisClient,
  prefix: string,
  orgId: string,
  runId: string,
): Promise<PublishRunView> {
  const run = await getPublishRun(db, orgId, runId);
  const signals = await readDestinationSignals(
    redis,
    prefix,
    run.destinations.map((d) => d.id),
  );
  const productOrder = new Map(run.products.map((p, i) => [p.id, i]));
  const destinationOrder = new Map(run.destinations.map((d, i) => [d.id, i]));
  const cells = [...run.cells].sort(
    (a, b) =>
      (productOrder.get(a.productId) ?? 0) - (productOrder.get(b.productId) ?? 0) ||
      (destinationOrder.get(a.destinationAccountId) ?? 0) -
        (destinationOrder.get(b.destinationAccountId) ?? 0),
  );
  const counts = countCells(cells);
  return {
    id: run.id,
    createdAt: run.createdAt,
    createdBy: run.createdBy,
    productCount: run.productCount,
    destinationCount: run.destinationCount,
    firstProductTitle: run.firstProductTitle,
    destinationNames: run.destinationNames,
    counts,
    finished: isFinished(counts),
    products: run.products,
    destinations: run.destinations.map((d) => {
      const signal = signals.get(d.id)!;
      return { ...d, breaker: signal.breaker, channelWaitUntil: signal.channelWait?.until ?? null };
    }),
    cells,
    failures: groupFailures(cells),
  };
}
