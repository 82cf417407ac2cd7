import fp from "fastify-plugin";
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { ServiceError, databaseUnavailable, isDatabaseUnavailable } from "@catalog/db";
import { describeValidationError } from "./validation.js";
import { hasOverlongSegment, segmentTooLong } from "../framework-errors.js";

/**
 * The one place where failures become `{ error }` with a status. Unexpected 5xx details stay in
 * the log; a ServiceError's message was written for the user (a channel not configured, a channel
 * that failed the code exchange), so it is shown whatever its status.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance, options: { bodyLimit: number }) => {
    app.setNotFoundHandler((request, reply) => {
      // The router answers 414 when such a segment is a parameter; one that missed every route (or
      // fell to the dashboard's wildcard) alike.
      if (hasOverlongSegment(request.url)) return reply.code(414).send({ error: segmentTooLong });
      reply
        .code(404)
        .send({ error: `No route for ${request.method} ${request.url.split("?")[0]}` });
    });

    app.setErrorHandler((thrown: FastifyError, request, reply) => {
      const error = outageAware(thrown, request);
      const { status, message } = classify(error, options.bodyLimit);
      if (status >= 500 && !(error instanceof ServiceError)) {
        request.log.error({ err: error }, "request failed");
        reply
          .code(status)
          .send({ error: `Internal error; quote request id ${request.id} when reporting it` });
        return;
      }
      if (error instanceof ServiceError) reply.headers(error.headers);
      reply.code(status).send({ error: message });
    });
  },
  { name: "errors" },
);

/**
 * PostgreSQL out of reach is a moment to wait, not a bug: the ServiceError saying so (503,
 * Retry-After); any other error as it is.
 */
export function outageAware(
  error: FastifyError,
  request: FastifyRequest,
): FastifyError | ServiceError {
  if (!isDatabaseUnavailable(error)) return error;
  request.log.warn({ err: error }, "database unavailable");
  return databaseUnavailable();
}

/**
 * The status and the message a person is shown for `error` (5xx details other than a ServiceError's
 * are the caller's to hide).
 */
export function classify(
  error: FastifyError | ServiceError,
  bodyLimit: number,
): { status: number; message: string } {
  if (error instanceof ServiceError) return { status: error.statusCode, message: error.message };
  if (error.validation)
    return {
      status: 422,
      message: describeValidationError(error.validationContext, error.validation),
    };
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return {
        status: 413,
        message: `request body is larger than the limit of ${bodyLimit} bytes`,
      };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 415, message: "unsupported Content-Type: send application/json" };
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return {
        status: 400,
        message: "empty body with Content-Type application/json: send a JSON document",
      };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return { status: 400, message: `malformed JSON body: ${error.message}` };
  }
  const status = error.statusCode ?? 500;
  if (status === 400 && error instanceof SyntaxError)
    return { status, message: `malformed JSON body: ${error.message}` };
  if (status >= 400 && status < 500) return { status, message: error.message };
  return { status: status >= 500 ? status : 500, message: "internal error" };
}
