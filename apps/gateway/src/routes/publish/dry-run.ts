// POST /api/products/publish with dryRun: each product x destination checked against what its
// channel will demand (the destination's settings, the product's required fields and the
// channel's limits: the channel's preflight, the same checks its adapter gives up with), and a
// destination its channel asked to wait. Reads only: no run, no sync log, no job, no listing.
import type { Static } from "typebox";
import { toPublishable, type ChannelRegistry, type PreflightProblem } from "@catalog/channels";
import {
  openCredentials,
  toProductView,
  type CredentialKeyring,
  type Db,
  type PublishTargets,
} from "@catalog/db";
import { readChannelWaits, type RedisClient } from "@catalog/queue";
import type { PublishCheckSchema } from "./schemas.js";

type PublishCheck = Static<typeof PublishCheckSchema>;

/** Pairs checked at once: the checks are local, but a channel's preflight may call the channel. */
const CONCURRENCY = 8;
/**
 * A channel's preflight that calls the channel gives up after this long (reported as a problem).
 */
const CHECK_TIMEOUT_MS = 15_000;

export interface DryRunDeps {
  db: Db;
  redis: RedisClient;
  prefix: string;
  channels: ChannelRegistry;
  /** Opens stored credentials for checks that call the channel; null: they are checked without. */
  keyring: CredentialKeyring | null;
}

export async function dryRunPublish(
  deps: DryRunDeps,
  orgId: string,
  targets: PublishTargets,
  signal: AbortSignal,
): Promise<PublishCheck> {
  const { db } = deps;
  const destinationIds = targets.destinations.map((d) => d.id);
  const [rows, destinations, waits] = await Promise.all([
    db.product.findMany({ where: { orgId, id: { in: targets.productIds } } }),
    db.destinationAccount.findMany({
      where: { orgId, id: { in: destinationIds }, disconnectedAt: null },
    }),
    readChannelWaits(deps.redis, deps.prefix, destinationIds),
  ]);
  const products = new Map(rows.map((row) => [row.id, toPublishable(toProductView(row))]));
  const byId = new Map(destinations.map((d) => [d.id, d]));

  const pairs = targets.productIds.flatMap((productId) =>
    targets.destinations.map((d) => ({ productId, destination: byId.get(d.id)! })),
  );
  const items = new Array<PublishCheck["items"][number]>(pairs.length);
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < pairs.length; n = next++) {
      const { productId, destination } = pairs[n]!;
      const channel = destination.channel;
      const problems: PreflightProblem[] = [];
      const wait = waits.get(destination.id);
      if (wait) {
        problems.push({
          field: "destination",
          message: `${wait.channel} asked to wait until ${new Date(wait.until).toISOString()}: publishing there is refused until then`,
        });
      }
      const product = products.get(productId);
      if (!product) {
        // Deleted between the ids' check and this read.
        problems.push({ field: "product", message: "the product is no longer in the catalog" });
      } else {
        problems.push(
          ...(await deps.channels.channel(channel).preflight({
            product,
            destination: {
              id: destination.id,
              channel,
              baseUrl: destination.baseUrl,
              settings: destination.settings as Record<string, unknown>,
              credentials: credentialsOf(deps.keyring, destination),
            },
            signal: AbortSignal.any([signal, AbortSignal.timeout(CHECK_TIMEOUT_MS)]),
          })),
        );
      }
      items[n] = {
        productId,
        destinationAccountId: destination.id,
        channel,
        ok: problems.length === 0,
        problems,
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pairs.length) }, worker));
  const ok = items.filter((i) => i.ok).length;
  return {
    dryRun: true,
    items,
    summary: { checked: items.length, ok, failing: items.length - ok },
  };
}

/**
 * The stored credentials, opened where the gateway holds the keys; `{}` otherwise (a check that
 * needs them says so).
 */
function credentialsOf(
  keyring: CredentialKeyring | null,
  d: { credentials: string | null; credentialsKeyId: string | null },
): Record<string, unknown> {
  if (!keyring || !d.credentials || !d.credentialsKeyId) return {};
  try {
    return openCredentials(keyring, {
      credentials: d.credentials,
      credentialsKeyId: d.credentialsKeyId,
    });
  } catch {
    return {};
  }
}
