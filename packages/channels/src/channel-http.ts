// What every HTTP adapter does around a request: one time budget and abort signal for the whole
// publish, network failures turned into retryable errors, answers classified the same way for
// every channel, and 2xx bodies that cannot be read treated as the channel's hiccup.
import type { IncomingHttpHeaders } from "node:http";
import { type FormData, request as httpRequest } from "undici";
import {
  BlockedUrlError,
  FetchFailedError,
  InvalidUrlError,
  requestPublic,
  startDeadline,
  timeoutReason,
  type UrlPolicy,
} from "@catalog/fetch/public";
import type { ChannelName } from "./channel-names.js";
import { classifyChannelResponse, classifyNetworkError } from "./classify.js";
import { GiveUpChannelError, isChannelError, RetryableChannelError } from "./errors.js";

export interface Answer {
  status: number;
  /** Names in lower case; `headerValue` (classify.ts) reads one. */
  headers: IncomingHttpHeaders;
  text: string;
}

export interface ChannelRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | FormData;
}

const FORM_TYPE = "application/x-www-form-urlencoded;charset=UTF-8";

export type ChannelCall = (request: ChannelRequest) => Promise<Answer>;

/**
 * A caller for the requests of one publish (or one token refresh): they share `timeoutMs` as a
 * whole and stop when `signal` aborts. An abort by the caller is retryable but not a timeout.
 * With `storePolicy` (an address a merchant gave us, such as a WooCommerce store) every request
 * checks the address again and connects only to the checked one; a refused address gives up.
 */
export function channelCaller(
  channel: ChannelName,
  signal: AbortSignal,
  timeoutMs: number,
  storePolicy?: UrlPolicy,
): ChannelCall {
  // One budget for the whole publish; each request holds its own clock for what is left of it.
  const endsAt = Date.now() + timeoutMs;
  return async ({ method, url, headers = {}, body }) => {
    const sent = { accept: "application/json", ...headers };
    const deadline = startDeadline(
      Math.max(endsAt - Date.now(), 0),
      timeoutReason(timeoutMs),
      signal,
    );
    try {
      if (storePolicy)
        return await pinnedCall(
          channel,
          { method, url, headers: sent, body },
          storePolicy,
          deadline.signal,
        );
      // undici's request, not fetch: the same client for about a third of fetch's CPU per call
      // (no WHATWG streams or Response objects), which a publish job mostly is.
      const form = body instanceof URLSearchParams;
      const response = await httpRequest(url, {
        method,
        headers: form ? { "content-type": FORM_TYPE, ...sent } : sent,
        body: form ? body.toString() : body,
        signal: deadline.signal,
      });
      return {
        status: response.statusCode,
        headers: response.headers,
        text: await response.body.text(),
      };
    } catch (error) {
      if (isChannelError(error)) throw error;
      throw classifyNetworkError(channel, error, { timedOut: deadline.expired, timeoutMs });
    } finally {
      deadline.release();
    }
  };
}

async function pinnedCall(
  channel: ChannelName,
  request: ChannelRequest,
  policy: UrlPolicy,
  signal: AbortSignal,
): Promise<Answer> {
  if (request.body !== undefined && typeof request.body !== "string")
    throw new TypeError(`${channel}: only text bodies go to a merchant's own address`);
  try {
    const answer = await requestPublic({ ...request, body: request.body, policy, signal });
    return { status: answer.status, headers: answer.headers, text: answer.body.toString("utf8") };
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof BlockedUrlError || error instanceof InvalidUrlError) {
      throw new GiveUpChannelError(
        `${channel}: the store's address cannot be used: ${error.message}`,
        { channel, kind: "validation", field: "baseUrl" },
      );
    }
    if (error instanceof FetchFailedError) {
      if (error.transient)
        throw new RetryableChannelError(`${channel} could not be reached: ${error.message}`, {
          channel,
          cause: error,
        });
      throw new GiveUpChannelError(`${channel}: ${error.message}`, { channel, kind: "validation" });
    }
    throw error;
  }
}

/** Throws the classified failure of a non-2xx answer; returns quietly on 2xx. */
export function throwIfFailed(channel: ChannelName, answer: Answer): void {
  const failure = classifyChannelResponse(channel, answer.status, answer.headers, answer.text);
  if (failure) throw failure;
}

/**
 * An end (delete or withdraw) call's answer: a listing the channel does not have (404, or 410
 * gone) is as ended as we want it; anything else not 2xx throws its classified failure.
 */
export function throwUnlessEnded(channel: ChannelName, answer: Answer): void {
  if (answer.status === 404 || answer.status === 410) return;
  throwIfFailed(channel, answer);
}

/**
 * The JSON object of an answer; an unreadable body is retryable (a proxy's error page, a cut body).
 */
export function jsonBody(channel: ChannelName, answer: Answer): Record<string, unknown> {
  try {
    const body: unknown = JSON.parse(answer.text);
    if (body && typeof body === "object") return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new RetryableChannelError(`${channel} answered ${answer.status} with an unreadable body`, {
    channel,
    status: answer.status,
  });
}

/** throwIfFailed, then jsonBody. */
export function okJson(channel: ChannelName, answer: Answer): Record<string, unknown> {
  throwIfFailed(channel, answer);
  return jsonBody(channel, answer);
}
