import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  propagation,
  trace,
  type Context,
} from "@opentelemetry/api";
import { BullMQOtel } from "bullmq-otel";
import { tracing } from "./state.js";

const TRACER = "catalog";
let telemetry: BullMQOtel | undefined;

/**
 * BullMQ's `telemetry` option for a Queue or Worker: spans for adds and jobs, and the producer's
 * trace context carried in each job (bullmq-otel). Undefined when the process does not trace, so
 * BullMQ does no telemetry work at all.
 */
export function queueTelemetry(): BullMQOtel | undefined {
  if (!tracing()) return undefined;
  telemetry ??= new BullMQOtel({ tracerName: TRACER });
  return telemetry;
}

/** The context a job's producer propagated (bullmq-otel's metadata), or none. */
function producerContext(metadata: string | null | undefined): Context {
  if (!metadata) return ROOT_CONTEXT;
  try {
    return propagation.extract(ROOT_CONTEXT, JSON.parse(metadata) as Record<string, string>);
  } catch {
    return ROOT_CONTEXT;
  }
}

/**
 * Runs a job that a process took without a BullMQ Worker (the publish lanes' batches) in a
 * consumer span named as BullMQ's Workers name theirs (`process <queue>`), a child of the span
 * that added the job: the trace goes on from the request that enqueued it. Just runs `fn` when
 * the process does not trace.
 */
export function inJobSpan<T>(
  job: { queue: string; id: string; traceMetadata?: string | null | undefined },
  fn: () => Promise<T>,
): Promise<T> {
  if (!tracing()) return fn();
  return trace.getTracer(TRACER).startActiveSpan(
    `process ${job.queue}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "bullmq",
        "messaging.operation.type": "process",
        "messaging.destination.name": job.queue,
        "messaging.message.id": job.id,
        "bullmq.job.id": job.id,
      },
    },
    producerContext(job.traceMetadata),
    async (span) => {
      try {
        return await fn();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
