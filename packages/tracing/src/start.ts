// Starts OpenTelemetry tracing in this process. Loaded only when tracing is on (register.ts, or a
// test), so that a process without OTEL_EXPORTER_OTLP_ENDPOINT loads no SDK.
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from "@opentelemetry/core";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import {
  detectResources,
  envDetector,
  resourceFromAttributes,
  type Resource,
} from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  TracerProvider,
  type SpanExporter,
} from "@opentelemetry/sdk-trace";
import { runningProvider, setRunningProvider } from "./state.js";

export interface TracingOptions {
  /** `service.name` unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) sets it. */
  serviceName: string;
  /**
   * Where spans go, each at once (tests: an InMemorySpanExporter). Without it, the OTLP exporter
   * the standard OTEL_EXPORTER_OTLP_* variables configure, in batches.
   */
  exporter?: SpanExporter;
}

/**
 * Registers the tracer provider, the context manager and the W3C propagators globally, and the
 * HTTP (server and `node:http` clients), undici (`fetch`), pg and ioredis instrumentations.
 * BullMQ's own spans come from its `telemetry` option (`queueTelemetry`). Returns the provider.
 */
export async function startTracing(options: TracingOptions): Promise<TracerProvider> {
  const running = runningProvider();
  if (running) return running;
  const provider = new TracerProvider({
    resource: serviceResource(options.serviceName),
    spanProcessors: [
      options.exporter
        ? new SimpleSpanProcessor({ exporter: options.exporter })
        : new BatchSpanProcessor({ exporter: await otlpExporter(), ...batchOptions() }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  );
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes would be most of the spans and tell nothing.
        ignoreIncomingRequestHook: (req) => /^\/(?:health|ready|metrics)\b/.test(req.url ?? ""),
      }),
      new UndiciInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  setRunningProvider(provider);
  return provider;
}

function serviceResource(serviceName: string): Resource {
  // The environment's attributes (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) win.
  return resourceFromAttributes({ "service.name": serviceName }).merge(
    detectResources({ detectors: [envDetector] }),
  );
}

/** The standard OTEL_BSP_* variables (this SDK no longer reads them itself). */
function batchOptions() {
  const number = (name: string) => {
    const value = Number(process.env[name]);
    return process.env[name] && Number.isInteger(value) && value > 0 ? value : undefined;
  };
  const options = {
    scheduledDelayMillis: number("OTEL_BSP_SCHEDULE_DELAY"),
    exportTimeoutMillis: number("OTEL_BSP_EXPORT_TIMEOUT"),
    maxQueueSize: number("OTEL_BSP_MAX_QUEUE_SIZE"),
    maxExportBatchSize: number("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/** OTLP over HTTP: protobuf, or JSON when OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says http/json. */
async function otlpExporter(): Promise<SpanExporter> {
  const protocol =
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol === "http/json") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
  return new OTLPTraceExporter();
}
