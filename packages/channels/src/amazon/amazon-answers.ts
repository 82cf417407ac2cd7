// How SP-API answers map onto the three outcomes, where Amazon differs from the shared policy:
// an expired or unknown access token is a 403 `Unauthorized` (the pipeline refreshes after a 401,
// so it is reported as one); a 429 rarely says Retry-After but gives the operation's rate in
// `x-amzn-RateLimit-Limit` (requests per second), which says how long one request must wait; and
// a 200 can still refuse the listing (`status: INVALID`, or issues of severity ERROR), whose
// issues become the listing's error, one per attribute.
import { type Answer, jsonBody } from "../channel-http.js";
import { classifyChannelResponse, headerValue } from "../classify.js";
import { ChannelWaitError, GiveUpChannelError } from "../errors.js";

const CHANNEL = "amazon";

/** Throws the outcome of a non-2xx answer; returns quietly on 2xx. */
export function throwIfAmazonFailed(answer: Answer): void {
  const failure = classifyChannelResponse(CHANNEL, answer.status, answer.headers, answer.text);
  if (!failure) return;
  if (answer.status === 403) {
    const first = (() => {
      try {
        return ((
          JSON.parse(answer.text) as {
            errors?: { code?: string; message?: string; details?: string }[];
          }
        ).errors ?? [])[0];
      } catch {
        return undefined;
      }
    })();
    if (
      first?.code === "Unauthorized" &&
      /token/i.test(`${first.details ?? ""} ${first.message ?? ""}`)
    ) {
      const said = first.details || first.message || "the access token was refused";
      throw new GiveUpChannelError(`amazon answered 403: ${said}`, {
        channel: CHANNEL,
        status: 401,
        kind: "auth",
        channelMessage: said,
      });
    }
  }
  if (answer.status === 429 && !headerValue(answer.headers, "retry-after")) {
    const rate = Number(headerValue(answer.headers, "x-amzn-ratelimit-limit"));
    if (Number.isFinite(rate) && rate > 0)
      throw new ChannelWaitError(failure.message, {
        channel: CHANNEL,
        status: 429,
        retryAfterMs: 1000 / rate,
      });
  }
  throw failure;
}

export interface Issue {
  code?: string;
  message?: string;
  severity?: string;
  attributeNames?: string[];
}

/**
 * The submission's answer: INVALID, or ERROR issues, give up with each attribute's problem;
 * warnings pass.
 */
export function checkSubmission(sku: string, answer: Answer): { status: string; issues: Issue[] } {
  throwIfAmazonFailed(answer);
  const body = jsonBody(CHANNEL, answer) as { status?: string; issues?: Issue[] };
  const issues = Array.isArray(body.issues) ? body.issues : [];
  const errors = issues.filter((i) => i.severity === "ERROR");
  if (body.status === "INVALID" || errors.length > 0) {
    const listed = (errors.length ? errors : issues).map(
      (i) =>
        `${i.attributeNames?.length ? `${i.attributeNames.join(", ")}: ` : ""}${i.message ?? i.code ?? "invalid"}`,
    );
    const said = listed.join("; ") || `the submission for ${sku} was ${body.status}`;
    const field = (errors.length ? errors : issues).find((i) => i.attributeNames?.length)
      ?.attributeNames?.[0];
    throw new GiveUpChannelError(
      `amazon refused SKU ${sku} (${body.status ?? "issues"}): ${said}`.slice(0, 1000),
      { channel: CHANNEL, status: answer.status, kind: "validation", field, channelMessage: said },
    );
  }
  return { status: body.status ?? "ACCEPTED", issues };
}
