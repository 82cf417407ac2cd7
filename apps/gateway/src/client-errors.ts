import { STATUS_CODES, maxHeaderSize } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * Requests Node refuses before Fastify sees them (a request line and headers over Node's
 * `maxHeaderSize`, a malformed request, a client too slow to send its headers) get the same
 * `{ error }` JSON as every other refusal, naming the limit, instead of Fastify's or Node's own.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, message] = describe(error.code);
  this.log.debug({ err: error }, "client error");
  if (socket.writable) {
    const body = JSON.stringify({ error: message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function describe(code: string | undefined): [number, string] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [
        431,
        `the request line (URL with its query string) and headers are larger than the limit of ${maxHeaderSize} bytes`,
      ];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "the request was not received in time"];
    default:
      return [400, "malformed HTTP request"];
  }
}
