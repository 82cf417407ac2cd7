// @catalog/tracing: what a process needs to know about tracing without loading the SDK (which
// register.ts starts, only when OTEL_EXPORTER_OTLP_ENDPOINT is set).
export { defaultServiceName, tracingConfigured } from "./enabled.js";
export { stopTracing, tracing } from "./state.js";
export { traceLogMixin, type TraceLogFields } from "./log-mixin.js";
export { inJobSpan, queueTelemetry } from "./queue-telemetry.js";
