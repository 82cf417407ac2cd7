// The Grafana dashboard beside the manifests asks only for series the processes serve.
import { readFileSync } from "node:fs";
import { repoRoot } from "./built-processes.js";

const dashboard = JSON.parse(
  readFileSync(`${repoRoot}deploy/grafana/catalog-service.json`, "utf8"),
) as {
  panels: { title: string; targets: { expr: string }[] }[];
};
const sources = [
  "apps/gateway/src/metrics.ts",
  "apps/gateway/src/server.ts",
  "apps/publish-worker/src/metrics.ts",
  "apps/publish-worker/src/main.ts",
  "apps/import-worker/src/metrics.ts",
  "apps/import-worker/src/main.ts",
]
  .map((file) => readFileSync(`${repoRoot}${file}`, "utf8"))
  .join("\n");
const defined = new Set([...sources.matchAll(/name: "(catalog_\w+)"/g)].map((m) => m[1]!));
// prom-client's default metrics, under each process's prefix.
const defaultPrefixes = [...sources.matchAll(/prefix: "(catalog_\w+_)"/g)].map((m) => m[1]!);

test("every panel queries metrics that the gateway or a worker defines", () => {
  expect(defaultPrefixes.sort()).toEqual([
    "catalog_gateway_",
    "catalog_import_worker_",
    "catalog_publish_worker_",
  ]);
  expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
  for (const panel of dashboard.panels) {
    expect(panel.targets.length).toBeGreaterThan(0);
    for (const { expr } of panel.targets) {
      for (const [series] of expr.matchAll(/catalog_\w+/g)) {
        const metric = series.replace(/_(bucket|count|sum)$/, "");
        const known =
          defined.has(metric) ||
          defaultPrefixes.some(
            (p) => metric.startsWith(`${p}process_`) || metric.startsWith(`${p}nodejs_`),
          );
        expect(`${panel.title}: ${metric} ${known ? "defined" : "not defined"}`).toBe(
          `${panel.title}: ${metric} defined`,
        );
      }
    }
  }
});
