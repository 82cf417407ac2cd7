import { pino, type DestinationStream, type Logger } from "pino";
import { logRedaction } from "@catalog/config";
import { traceLogMixin } from "@catalog/tracing";

/**
 * The publish worker's log: stdout unless a stream is given, with the redaction every process
 * applies.
 */
export function createWorkerLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    { level, base: { process: "publish-worker" }, redact: logRedaction, mixin: traceLogMixin() },
    stream,
  );
}
