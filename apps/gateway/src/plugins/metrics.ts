import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { gatewayRegistry, httpDuration, httpRequests } from "../metrics.js";

/**
 * Counts every answer by route template and serves `/metrics` in Prometheus' text format, without
 * auth (like /healthz: scrapers reach the pod directly; keep it off a public ingress).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook("onResponse", async (request, reply) => {
      // Requests that matched no route share one label, so unknown URLs cannot grow the series.
      const route = request.routeOptions.url ?? "unmatched";
      httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
      httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });
    app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
      reply.header("content-type", gatewayRegistry.contentType);
      return gatewayRegistry.metrics();
    });
  },
  { name: "metrics" },
);
