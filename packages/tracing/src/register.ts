// The one place every process starts tracing: `node --import <this module> <start file>` (the
// image's NODE_OPTIONS, scripts/run.sh, the tests that start processes). It runs before the start
// file is loaded, which the instrumentations need: they wrap pg, ioredis and node:http as those
// are first imported. Without OTEL_EXPORTER_OTLP_ENDPOINT it loads nothing more than this file.
import { defaultServiceName, tracingConfigured } from "./enabled.js";

if (tracingConfigured()) {
  const { register, supportsSyncHooks } = await import("import-in-the-middle/register-hooks.mjs");
  // In-thread loader hooks for the ES modules the instrumentations wrap (CommonJS ones are
  // wrapped through require).
  if (supportsSyncHooks()) register({ include: ["pg", "ioredis", "http", "https"] });
  const { startTracing } = await import("./start.js");
  await startTracing({
    serviceName: process.env.OTEL_SERVICE_NAME || defaultServiceName(process.argv[1]),
  });
  // A process that ends by itself (the CLI) sends its last spans; the services do so in their
  // shutdown (stopTracing) before they exit.
  const { stopTracing } = await import("./state.js");
  process.once("beforeExit", () => void stopTracing());
}
