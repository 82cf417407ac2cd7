import { Webhook } from "standardwebhooks";
import type { AttemptOutcome, ClaimedDelivery } from "@catalog/db";
import { requestPublic } from "@catalog/fetch/public";
import {
  BlockedUrlError,
  FetchFailedError,
  InvalidUrlError,
  type UrlPolicy,
} from "@catalog/fetch/url-guard";

/** Bytes of a receiver's answer that are read (for the log); the rest is dropped. */
const ANSWER_BYTES = 1024;

export interface SendOptions {
  policy: UrlPolicy;
  timeoutMs: number;
  now: Date;
}

/**
 * One attempt of a delivery, by the Standard Webhooks specification: the body `{ type,
 * timestamp, data }` signed with the endpoint's secret under its webhook-id and the attempt's
 * timestamp. The URL is screened again (the public-URL policy of imports) and the connection
 * pinned to the screened address; a refused URL is never connected to, and is a final failure.
 */
export async function sendWebhook(
  delivery: ClaimedDelivery,
  secret: string,
  options: SendOptions,
): Promise<AttemptOutcome> {
  const body = JSON.stringify(delivery.payload);
  const signature = new Webhook(secret).sign(delivery.messageId, options.now, body);
  try {
    const answer = await requestPublic({
      method: "POST",
      url: delivery.endpoint.url,
      headers: {
        "content-type": "application/json",
        "user-agent": "catalog-webhooks/1",
        "webhook-id": delivery.messageId,
        "webhook-timestamp": String(Math.floor(options.now.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body,
      policy: options.policy,
      signal: AbortSignal.timeout(options.timeoutMs),
      truncateAt: ANSWER_BYTES,
    });
    if (answer.status >= 200 && answer.status < 300)
      return { ok: true, responseStatus: answer.status };
    const text = answer.body.toString("utf8").replace(/\s+/g, " ").trim().slice(0, 200);
    return {
      ok: false,
      responseStatus: answer.status,
      error: `the endpoint answered ${answer.status}${text ? `: ${text}` : ""}`,
    };
  } catch (error) {
    return failure(error, options.timeoutMs);
  }
}

function failure(error: unknown, timeoutMs: number): AttemptOutcome {
  if (error instanceof BlockedUrlError || error instanceof InvalidUrlError)
    return { ok: false, responseStatus: null, error: `not sent: ${error.message}`, final: true };
  if (error instanceof FetchFailedError)
    return { ok: false, responseStatus: null, error: error.message };
  if (error instanceof Error && error.name === "TimeoutError")
    return {
      ok: false,
      responseStatus: null,
      error: `no answer within ${timeoutMs / 1000} s`,
    };
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    responseStatus: null,
    error: `the connection failed (${typeof code === "string" ? code : message})`,
  };
}
