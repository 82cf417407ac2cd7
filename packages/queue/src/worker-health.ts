import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { probe } from "./probe.js";

export type ReadinessCheck = () => Promise<void>;

/** What `/metrics` serves: a prom-client Registry fits. */
export interface MetricsSource {
  contentType: string;
  metrics(): Promise<string>;
}

/**
 * A worker's `/healthz` (alive), `/readyz` (each named dependency answers, else 503 naming
 * what is down) and `/metrics` (Prometheus) on a small port of its own, for orchestrators and
 * scrapers. No auth: keep the port off public networks.
 */
export async function startWorkerHealth(options: {
  host: string;
  port: number;
  checks: Record<string, ReadinessCheck>;
  metrics?: MetricsSource;
}): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const send = (status: number, body: object) => {
      response
        .writeHead(status, { "content-type": "application/json; charset=utf-8" })
        .end(JSON.stringify(body));
    };
    if (request.url === "/healthz") return send(200, { status: "ok" });
    if (request.url === "/metrics" && options.metrics) {
      const source = options.metrics;
      void source.metrics().then(
        (text) => response.writeHead(200, { "content-type": source.contentType }).end(text),
        (error: Error) => send(500, { error: `metrics failed: ${error.message}` }),
      );
      return;
    }
    if (request.url !== "/readyz")
      return send(404, { error: `No route for ${request.method} ${request.url}` });
    void Promise.all(
      Object.entries(options.checks).map(async ([name, check]) =>
        (await probe(check)).ok ? null : name,
      ),
    ).then((results) => {
      const down = results.filter((name): name is string => name !== null);
      if (down.length > 0) send(503, { error: `not ready: ${down.join(" and ")} unreachable` });
      else send(200, { status: "ready" });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `HEALTH_PORT ${options.port} is already in use on ${options.host}: set another, or leave HEALTH_PORT unset (or 0) to take a free port`,
            )
          : error,
      ),
    );
    server.listen(options.port, options.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
