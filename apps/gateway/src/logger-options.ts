import type { FastifyRequest } from "fastify";
import type { DestinationStream } from "pino";
import { logRedaction, redactUrl } from "@catalog/config";
import { traceLogMixin } from "@catalog/tracing";

/** Where the gateway logs and how much; the redaction is not optional. */
export interface GatewayLogging {
  level?: string;
  /** Defaults to stdout. */
  stream?: DestinationStream;
}

/**
 * The gateway's pino options: Fastify's request line without secrets (an OAuth callback's URL
 * carries its code, state and hmac), and the redaction every process applies.
 */
export function gatewayLoggerOptions(level: string, logging: GatewayLogging = {}) {
  return {
    level: logging.level ?? level,
    ...(logging.stream ? { stream: logging.stream } : {}),
    redact: logRedaction,
    mixin: traceLogMixin(),
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
