import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { httpDuration, httpRequests } from "../metrics.js";

/**
 * Counts every answer by route template. `/metrics` itself is served on the health port
 * (health-port.ts), never on the public one.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook("onResponse", (request, reply, done) => {
      // Requests that matched no route share one label, so unknown URLs cannot grow the series.
      const route = request.routeOptions.url ?? "unmatched";
      httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
      httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: "metrics" },
);
