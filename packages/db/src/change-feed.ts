import pg from "pg";

/** The channel that the database triggers notify (see the `change_notifications` migration). */
export const CHANGE_CHANNEL = "catalog_changes";

export type Change = { kind: "products"; orgId: string } | { kind: "sessions" };

export interface ChangeFeedHandlers {
  onChange(change: Change): void;
  /** The feed is (re)connected: anything cached before may have missed changes. */
  onConnected(): void;
  /** The feed is down: caches must not be trusted until `onConnected`. */
  onDisconnected(error?: Error): void;
}

function parse(payload: string | undefined): Change | null {
  if (payload === "sessions") return { kind: "sessions" };
  if (payload?.startsWith("products:"))
    return { kind: "products", orgId: payload.slice("products:".length) };
  return null;
}

/**
 * Listens to the database's change notifications on one dedicated connection and reconnects
 * after a loss. Triggers send them on commit, so every writer (gateway, CLI, workers, a
 * hand-written UPDATE) is seen, and nothing is announced for a rolled-back transaction.
 */
export function openChangeFeed(
  connectionString: string,
  handlers: ChangeFeedHandlers,
): { close(): Promise<void> } {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString });
    next.on("notification", (message) => {
      const change = parse(message.payload);
      if (change) handlers.onChange(change);
    });
    const lost = (error?: Error) => {
      if (client !== next) return;
      client = null;
      handlers.onDisconnected(error);
      next.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect(), 1000);
    };
    next.on("error", lost);
    next.on("end", () => lost());
    try {
      client = next;
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (closed) return void next.end();
      handlers.onConnected();
    } catch (error) {
      lost(error as Error);
    }
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
