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

/**
 * `count` ports nothing listens on right now, all different: each is held until every one is
 * found, so a port handed to a process that has not bound it yet is never handed out again.
 */
export async function freePorts(count: number): Promise<number[]> {
  const probes = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(
      probes.map(
        (probe) =>
          new Promise<number>((resolve, reject) => {
            probe.once("error", reject);
            probe.listen(0, "127.0.0.1", () => {
              const address = probe.address();
              if (typeof address === "object" && address) resolve(address.port);
              else reject(new Error("no port"));
            });
          }),
      ),
    );
  } finally {
    await Promise.all(
      probes.map(
        (probe) =>
          new Promise<void>((done) => (probe.listening ? probe.close(() => done()) : done())),
      ),
    );
  }
}
