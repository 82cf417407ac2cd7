import { createServer } from "node:net";

/**
 * A port nothing listens on right now, for a server that must know its own address before it
 * listens (an OAuth callback URL given to a stand-in). The OS picks it; another process could
 * take it before the caller listens, a race small enough for tests and benches on one machine.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}
