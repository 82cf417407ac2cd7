// The stand-in channel's /_control API as the benches use it: per-store counters and faults.
import { startChildServer, type ChildServer } from "./child-server.js";
import type { CleanupStack } from "./cleanup-stack.js";

/** The generic stand-in channel in a process of its own, stopped by `cleanup`. */
export const startStandin = (
  cleanup: CleanupStack,
  env: Record<string, string> = {},
): Promise<ChildServer> =>
  startChildServer(
    cleanup,
    "stand-in",
    "packages/channels/src/standins/generic/standin-main.ts",
    (port) => ({ STANDIN_PORT: String(port), ...env }),
    "/_control/stores/ready-check",
  );

export interface StoreCounts {
  create: number;
  update: number;
  requests: number;
}

/** Runs `each` for every store, 25 at a time. */
async function forStores<T>(stores: string[], each: (store: string) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < stores.length; i += 25)
    out.push(...(await Promise.all(stores.slice(i, i + 25).map(each))));
  return out;
}

async function control(response: Response): Promise<Response> {
  if (!response.ok)
    throw new Error(`stand-in control: ${response.status} ${await response.text()}`);
  return response;
}

/** Each store's counters, by store. */
export async function standinCounts(
  standin: ChildServer,
  stores: string[],
): Promise<Map<string, StoreCounts>> {
  const counts = await forStores(stores, async (store) => {
    const response = await control(
      await fetch(`${standin.url}/_control/stores/${encodeURIComponent(store)}`),
    );
    return [store, ((await response.json()) as { counts: StoreCounts }).counts] as const;
  });
  return new Map(counts);
}

/** Makes every store answer each call after `delayMs`, until the stand-in stops. */
export async function setStoreLatency(
  standin: ChildServer,
  stores: string[],
  delayMs: number,
): Promise<void> {
  await forStores(stores, async (store) =>
    control(
      await fetch(`${standin.url}/_control/stores/${encodeURIComponent(store)}/fault`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ kind: "slow", delayMs }),
      }),
    ),
  );
}
