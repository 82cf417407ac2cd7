// Turns what a channel answered (or failed to answer) into one of the three outcomes. Adapters
// call these for every response, so all channels share one policy for statuses and Retry-After.
import type { ChannelName } from "./channel-names.js";
import {
  type ChannelFailure,
  ChannelWaitError,
  clampWait,
  DEFAULT_WAIT_MS,
  GiveUpChannelError,
  RetryableChannelError,
} from "./errors.js";

export type HeaderSource =
  Headers | Record<string, string | string[] | undefined> | null | undefined;

// Channel bodies can be long HTML error pages; the user needs the gist, not a page.
const MAX_MESSAGE_CHARS = 300;

/** One header's (first) value, by its name in lower case. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Retry-After in milliseconds, clamped to [1 s, 1 h]. Accepts delta-seconds ("120") and an
 * HTTP-date; missing or unreadable gives the 30 s default rather than no wait at all.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number {
  const text = value?.trim();
  if (!text) return DEFAULT_WAIT_MS;
  if (/^\d+(\.\d+)?$/.test(text)) return clampWait(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? DEFAULT_WAIT_MS : clampWait(date - now);
}

interface BodyFacts {
  message: string | undefined;
  code: string | undefined;
  field: string | undefined;
}

// Channels disagree on error shapes: { error: { message, code, field } } (stand-in),
// { error: "..." } (Etsy), { errors: [{ message, longMessage }] } (eBay, GraphQL),
// { code, message } (WooCommerce). Take the first readable one.
function readBody(bodyText: string): BodyFacts {
  const facts: BodyFacts = { message: undefined, code: undefined, field: undefined };
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    facts.message = bodyText.trim() || undefined;
    return facts;
  }
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  const obj = (v: unknown) =>
    v && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
  const root = obj(body);
  if (!root) return facts;
  const error = obj(root.error);
  const first = Array.isArray(root.errors) ? obj(root.errors[0]) : undefined;
  const source = error ?? first ?? root;
  facts.message =
    str(source.message) ?? str(source.longMessage) ?? str(root.error) ?? str(root.message);
  facts.code = str(source.code) ?? str(obj(source.extensions)?.code) ?? str(root.code);
  facts.field = str(source.field);
  return facts;
}

function shorten(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}

/** null for 2xx; otherwise the error the adapter should throw. */
export function classifyChannelResponse(
  channel: ChannelName,
  status: number,
  headers: HeaderSource,
  bodyText: string,
): ChannelFailure | null {
  if (status >= 200 && status < 300) return null;
  const facts = readBody(bodyText);
  const said = facts.message ? shorten(facts.message) : undefined;
  const message = `${channel} answered ${status}${said ? `: ${said}` : ""}`;
  const retryAfter = headerValue(headers, "retry-after");
  const throttled = facts.code?.toLowerCase() === "throttled";

  // A 503 that says when to come back is a request to wait, not a fault to count in the breaker.
  if (status === 429 || throttled || (status === 503 && retryAfter !== undefined)) {
    return new ChannelWaitError(message, {
      channel,
      status,
      retryAfterMs: parseRetryAfter(retryAfter),
    });
  }
  if (status === 401 || status === 403) {
    return new GiveUpChannelError(message, {
      channel,
      status,
      kind: "auth",
      channelMessage: said ?? `${status}`,
      field: facts.field,
    });
  }
  // 408 (request timeout) and 425 (too early) are the channel's transient troubles, not ours.
  if (status >= 400 && status < 500 && status !== 408 && status !== 425) {
    return new GiveUpChannelError(message, {
      channel,
      status,
      kind: "validation",
      channelMessage: said ?? `${status}`,
      field: facts.field,
    });
  }
  return new RetryableChannelError(message, { channel, status });
}

const NETWORK_CODES: Record<string, string> = {
  ECONNRESET: "the connection was reset",
  ECONNREFUSED: "the connection was refused",
  ETIMEDOUT: "the connection timed out",
  ENOTFOUND: "the host name did not resolve",
  EAI_AGAIN: "the host name did not resolve (temporary)",
  EPIPE: "the connection was closed while sending",
  UND_ERR_SOCKET: "the connection was closed before an answer",
  UND_ERR_CLOSED: "the connection was closed before an answer",
  UND_ERR_CONNECT_TIMEOUT: "connecting timed out",
  UND_ERR_HEADERS_TIMEOUT: "the answer's headers timed out",
  UND_ERR_BODY_TIMEOUT: "the answer's body timed out",
};

function errorCode(error: unknown): string | undefined {
  // The code may sit on a wrapped cause (fetch's TypeError("fetch failed", { cause: { code } })).
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A request that got no (complete) answer. Always retryable: a timeout or a reset says nothing
 * about the content. `timedOut` tells an AbortError caused by our own timeout from a shutdown.
 */
export function classifyNetworkError(
  channel: ChannelName,
  error: unknown,
  options: { timedOut?: boolean; timeoutMs?: number } = {},
): RetryableChannelError {
  const name = (error as { name?: unknown } | null)?.name;
  const after = options.timeoutMs === undefined ? "" : ` after ${options.timeoutMs} ms`;
  if (name === "TimeoutError" || (name === "AbortError" && options.timedOut)) {
    return new RetryableChannelError(`${channel} timed out${after}`, { channel, cause: error });
  }
  if (name === "AbortError")
    return new RetryableChannelError(`${channel} request was aborted`, { channel, cause: error });
  const code = errorCode(error);
  // A wrapper's message ("fetch failed") says nothing; the socket error under it does.
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const why =
    (code && NETWORK_CODES[code]) || (inner instanceof Error ? inner.message : String(inner));
  return new RetryableChannelError(
    `${channel} could not be reached: ${why}${code ? ` (${code})` : ""}`,
    { channel, cause: error },
  );
}
