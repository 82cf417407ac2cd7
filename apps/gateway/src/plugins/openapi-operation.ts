import type { FastifySchema, RouteOptions } from "fastify";
import { Type } from "typebox";
import { ErrorSchema, describedError } from "../schemas/common.js";
import { KEY_AUTHENTICATED_PATHS } from "./browser-clients.js";
import { scopesOfOperation } from "./token-scopes.js";

/** Methods whose body Fastify reads (and so can refuse: malformed, too large, not JSON). */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const RETRY_AFTER = {
  "retry-after": Type.Integer({
    minimum: 1,
    description: "Seconds to wait before trying again, when the wait is known",
  }),
};

/**
 * The answers any API route can give besides its own, each the one `{ error }` body: they come
 * from the gateway's hooks (rate limit, Origin check, auth), Fastify (URL, body parsing,
 * validation), Node (headers) or a failing dependency, not from the route's handler.
 */
const COMMON = {
  400: describedError(
    "Malformed request: a URL that is not valid percent-encoding, or a body that is not well-formed JSON or multipart",
  ),
  401: describedError("Missing, unknown or expired credentials (see the operation's security)"),
  403: describedError(
    "Refused: a request that changes something, sent by a browser from an origin this server does not allow, (where the route says so) by a role below the one it needs, or an API token without a scope the operation's security lists (or on an operation that lists no apiToken: a session only)",
  ),
  413: describedError("The request body is larger than the limit"),
  414: describedError("A path parameter is longer than the router accepts"),
  415: describedError(
    "The body's Content-Type is not one the route takes (application/json, or multipart/form-data where the route says so)",
  ),
  422: describedError(
    "A path parameter, query field or body field breaks its schema (the message names it and the rule), is nested too deeply or holds text that cannot be stored (a NUL character)",
  ),
  429: {
    ...describedError(
      "Too many requests: this service's rate limit, or the route's own budget (the message says which)",
    ),
    headers: RETRY_AFTER,
  },
  431: describedError("The request line and headers are larger than the server accepts"),
  500: describedError(
    "An unexpected failure: the message gives the request id to quote when reporting it",
  ),
  503: describedError(
    "A service this one needs (the database, or what the route names) is unavailable: try again later",
  ),
};
type Status = keyof typeof COMMON;

/** Which of the common answers `route` can give. */
function commonStatuses(method: string, url: string, schema: Record<string, unknown>): Status[] {
  const security = (schema.security as Record<string, unknown>[] | undefined) ?? [];
  const secured = security.some((scheme) => Object.keys(scheme).length > 0);
  // A session route refuses an API token outside its scopes.
  const bySession = security.some((scheme) => "session" in scheme);
  const withBody = BODY_METHODS.has(method);
  const validated = ["params", "querystring", "body", "headers"].some(
    (part) => schema[part] !== undefined,
  );
  return [
    400,
    ...(secured ? [401 as const] : []),
    ...((withBody && !KEY_AUTHENTICATED_PATHS.test(url)) || bySession ? [403 as const] : []),
    ...(withBody ? [413 as const, 415 as const] : []),
    ...(url.includes("/:") ? [414 as const] : []),
    ...(validated ? [422 as const] : []),
    429,
    431,
    500,
    503,
  ];
}

/**
 * A request schema as a client reads it: a property with a default may be left out, so it is
 * not listed as required (the validator fills it in before checking).
 */
function defaultsOptional(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(defaultsOptional);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, defaultsOptional(value)]),
  );
  const properties = out.properties as Record<string, { default?: unknown }> | undefined;
  if (Array.isArray(out.required) && properties && typeof properties === "object") {
    out.required = out.required.filter((name: string) => properties[name]?.default === undefined);
  }
  return out;
}

/**
 * @fastify/swagger's transform: what the OpenAPI document says of one API route beyond its own
 * schema. The route names its operation (`operationId`); its copy under /api/v1 is that name
 * with `V1`. The common answers are added where the route does not describe the status itself.
 */
export function documentOperation({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}): { schema: FastifySchema; url: string } {
  if (!url.startsWith("/api/") || !schema || schema.hide) return { schema, url };
  const own = schema as Record<string, unknown>;
  const method = String(route.method).toUpperCase();
  const responses = (own.response ?? {}) as Record<string, unknown>;
  const common = Object.fromEntries(
    commonStatuses(method, url, own)
      .filter((status) => responses[status] === undefined || responses[status] === ErrorSchema)
      .map((status) => [status, COMMON[status]]),
  );
  const operationId =
    typeof own.operationId === "string" && url.startsWith("/api/v1/")
      ? `${own.operationId}V1`
      : own.operationId;
  // The API token's scopes that open the operation (any one of them), from the one table.
  const scopes = scopesOfOperation(own.operationId);
  const security = Array.isArray(own.security)
    ? [
        ...(own.security as Record<string, string[]>[]),
        ...scopes.map((scope) => ({ apiToken: [scope] })),
      ]
    : own.security;
  return {
    url,
    schema: {
      ...own,
      ...(operationId === undefined ? {} : { operationId }),
      ...(security === undefined ? {} : { security }),
      ...(own.querystring === undefined ? {} : { querystring: defaultsOptional(own.querystring) }),
      ...(own.body === undefined ? {} : { body: defaultsOptional(own.body) }),
      response: { ...responses, ...common },
    } as FastifySchema,
  };
}
