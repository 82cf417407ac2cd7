import { trace } from "@opentelemetry/api";
import { tracing } from "./state.js";

/** The trace and span a log line was written in, as OpenTelemetry's log data model names them. */
export interface TraceLogFields {
  trace_id?: string;
  span_id?: string;
}

function traceFields(): TraceLogFields {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * pino's `mixin` for a process that traces: every line carries the active span's trace and span
 * ids, so a log line leads to its trace and a trace to its log lines. Undefined (no mixin, nothing
 * spent per line) when the process does not trace.
 */
export function traceLogMixin(): (() => TraceLogFields) | undefined {
  return tracing() ? traceFields : undefined;
}
