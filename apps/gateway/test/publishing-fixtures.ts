import { randomBytes } from "node:crypto";
import {
  createDestination,
  newKeyringSpec,
  parseKeyring,
  recordPublishRequest,
  type PublishJobRecord,
} from "@catalog/db";
import type { Gateway } from "./harness.js";

// Destinations are created directly: connecting one through a channel's OAuth is not what these
// tests are about.
const keyring = parseKeyring(newKeyringSpec());

export const connectStandin = (gw: Gateway, orgId: string, name: string) =>
  createDestination(gw.db, keyring, {
    orgId,
    channel: "standin",
    name,
    credentials: { token: `secret-${name}` },
  });

/** Records publishes as POST /api/products/publish does and puts them on the real queues. */
export async function queuePublishes(
  gw: Gateway,
  orgId: string,
  productIds: string[],
  destinationIds: string[],
): Promise<PublishJobRecord[]> {
  const records = await recordPublishRequest(gw.db, orgId, { productIds, destinationIds }, 60_000);
  await gw.app.queues.publish.enqueue(
    records.map(({ syncLogId, orgId: o, productId, destinationAccountId }) => ({
      syncLogId,
      orgId: o,
      productId,
      destinationAccountId,
    })),
  );
  return records;
}

/**
 * A Redis prefix of this file's own, nested in the run's prefix (so the run's teardown removes
 * it): queue depths then count only this file's jobs, whatever else runs alongside.
 */
export const privatePrefix = (label: string) =>
  `${process.env.REDIS_PREFIX ?? "catalog-test"}:${label}-${randomBytes(3).toString("hex")}`;
