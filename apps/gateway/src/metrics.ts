import { Counter, Histogram, Registry } from "prom-client";

/**
 * The gateway's Prometheus metrics, one set per process (every app built in the process counts
 * into it). Labels are bounded: routes are the registered templates, never raw URLs. The
 * process's default metrics (memory, event loop, GC) are added by server.ts, as each worker's
 * main.ts adds its own: their observers live as long as the process, not as long as a module
 * (jest loads this module once per test file).
 */
export const gatewayRegistry = new Registry();

export const httpRequests = new Counter({
  name: "catalog_http_requests_total",
  help: "HTTP requests answered, by method, route template and status code",
  labelNames: ["method", "route", "status"] as const,
  registers: [gatewayRegistry],
});

export const httpDuration = new Histogram({
  name: "catalog_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method and route template",
  labelNames: ["method", "route"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [gatewayRegistry],
});

export const importRows = new Counter({
  name: "catalog_import_rows_total",
  help: "Import rows read (each once, previewed or stored), by source (scrape, document, extension) and outcome (create, update, unchanged, error)",
  labelNames: ["source", "outcome"] as const,
  registers: [gatewayRegistry],
});
