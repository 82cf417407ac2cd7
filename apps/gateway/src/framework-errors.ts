import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";

/**
 * The longest path segment (a product or import id) the router reads: Fastify's `maxParamLength`.
 */
export const MAX_PATH_SEGMENT = 100;

export const segmentTooLong = `a path segment is longer than the limit of ${MAX_PATH_SEGMENT} characters`;

const decodedLength = (segment: string) => {
  try {
    return decodeURIComponent(segment).length;
  } catch {
    return segment.length;
  }
};

/**
 * True when a segment of the request's path, decoded, is longer than the router reads (what it
 * answers 414 for).
 */
export function hasOverlongSegment(url: string): boolean {
  return (url.split("?")[0] ?? "")
    .split("/")
    .some(
      (segment) => segment.length > MAX_PATH_SEGMENT && decodedLength(segment) > MAX_PATH_SEGMENT,
    );
}

/**
 * What Fastify's router answers before any hook or error handler runs (its `frameworkErrors`):
 * a path whose percent-encoding does not decode (400) and a path segment past `maxParamLength`
 * (414). They get this service's `{ error }`, not Fastify's `{ error, code, message, statusCode }`,
 * and the request id every answer carries.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header("x-request-id", request.id);
  switch (error.code) {
    case "FST_ERR_BAD_URL":
      reply.code(400).send({ error: "the URL's path is not valid percent-encoded UTF-8" });
      return;
    case "FST_ERR_MAX_PARAM_LENGTH":
      reply.code(414).send({ error: segmentTooLong });
      return;
    default:
      request.log.error({ err: error }, "request failed");
      reply
        .code(500)
        .send({ error: `Internal error; quote request id ${request.id} when reporting it` });
  }
}
