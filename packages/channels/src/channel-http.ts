// What every HTTP adapter does around a request: one time budget and abort signal for the whole
// publish, network failures turned into retryable errors, answers classified the same way for
// every channel, and 2xx bodies that cannot be read treated as the channel's hiccup.
import type { ChannelName } from "./adapter.js";
import { classifyChannelResponse, classifyNetworkError } from "./classify.js";
import { RetryableChannelError } from "./errors.js";

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface ChannelRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | FormData;
}

export type ChannelCall = (request: ChannelRequest) => Promise<Answer>;

/**
 * A caller for the requests of one publish (or one token refresh): they share `timeoutMs` as a
 * whole and stop when `signal` aborts. An abort by the caller is retryable but not a timeout.
 */
export function channelCaller(channel: ChannelName, signal: AbortSignal, timeoutMs: number): ChannelCall {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  return async ({ method, url, headers = {}, body }) => {
    try {
      const response = await fetch(url, { method, headers: { accept: "application/json", ...headers }, body, signal: combined });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      throw classifyNetworkError(channel, error, { timedOut: timeout.aborted && !signal.aborted, timeoutMs });
    }
  };
}

/** Throws the classified failure of a non-2xx answer; returns quietly on 2xx. */
export function throwIfFailed(channel: ChannelName, answer: Answer): void {
  const failure = classifyChannelResponse(channel, answer.status, answer.headers, answer.text);
  if (failure) throw failure;
}

/** The JSON object of an answer; an unreadable body is retryable (a proxy's error page, a cut body). */
export function jsonBody(channel: ChannelName, answer: Answer): Record<string, unknown> {
  try {
    const body: unknown = JSON.parse(answer.text);
    if (body && typeof body === "object") return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new RetryableChannelError(`${channel} answered ${answer.status} with an unreadable body`, { channel, status: answer.status });
}

/** throwIfFailed, then jsonBody. */
export function okJson(channel: ChannelName, answer: Answer): Record<string, unknown> {
  throwIfFailed(channel, answer);
  return jsonBody(channel, answer);
}
