// A product's history: pages of it as one query, who made a change in words, and where each
// field's value came from.
import { useQuery } from "@tanstack/react-query";
import type { HistoryEntry } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useSession } from "../../api/session";
import { isEmpty } from "./history-values";

/**
 * The first `pages` pages of a product's history, newest first (page 1 is shared with the field
 * origins).
 */
export function historyQuery(productId: string, pages: number) {
  return {
    queryKey: [...qk.products.history(productId), pages] as const,
    queryFn: async () => {
      const all: HistoryEntry[] = [];
      let total = 0;
      for (let page = 1; page <= pages; page++) {
        const result = await endpoints.products.history(productId, page);
        all.push(...result.items);
        total = result.total;
        if (page >= result.totalPages) break;
      }
      return { items: all, total };
    },
  };
}

export function useActorLabel() {
  const session = useSession();
  return (actor: HistoryEntry["actor"]): string => {
    if (actor.type === "user")
      return actor.id === session.user.id
        ? "you"
        : `a user of your org (${(actor.id ?? "").slice(0, 8)})`;
    if (actor.type === "apiKey") return "the browser extension (API key)";
    if (actor.type === "system" && actor.id === "source-recheck") return "Source re-check";
    if (actor.type === "system") return "the service";
    return actor.type;
  };
}

/** For each field, the newest history entry that set it: where its current value came from. */
export function useFieldOrigins(productId: string): Map<string, HistoryEntry> {
  const history = useQuery(historyQuery(productId, 1));
  const origins = new Map<string, HistoryEntry>();
  for (const entry of history.data?.items ?? []) {
    for (const [field, change] of Object.entries(entry.changes)) {
      if (!origins.has(field) && !(isEmpty(change.from) && isEmpty(change.to)))
        origins.set(field, entry);
    }
  }
  return origins;
}
