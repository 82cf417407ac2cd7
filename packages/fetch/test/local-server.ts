import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { UrlPolicy } from "../src/index.js";

export interface LocalServer {
  port: number;
  /** http://127.0.0.1:port */
  origin: string;
  /** TCP connections accepted so far: proves a refused URL never got as far as a socket. */
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

export async function startServer(handler: http.RequestListener): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    state.requests.push(req.url ?? "");
    handler(req, res);
  });
  const state: LocalServer = {
    port: 0,
    origin: "",
    connections: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
  server.on("connection", (socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  return state;
}

/**
 * Local ingest off, but the names given play public sites: they resolve to 127.0.0.1 and only
 * they (not 127.0.0.1 itself, nor other names) are let through.
 */
export function fakePublicPolicy(names: string[], extra: Record<string, string> = {}): UrlPolicy {
  return {
    allowPrivate: false,
    resolve: async (hostname) => {
      if (names.includes(hostname)) return [{ address: "127.0.0.1", family: 4 }];
      const mapped = extra[hostname];
      if (mapped)
        return mapped
          .split(",")
          .map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    },
    allowTarget: ({ hostname }) => names.includes(hostname),
  };
}
