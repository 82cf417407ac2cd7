// An OAuth 2 token endpoint (RFC 6749 section 4.1.3 and 6): a form POST answered with JSON.
// A refused grant (400 or 401: a revoked or expired code or refresh token) means the merchant
// must connect again; other failures are classified like any channel answer.
import { Type, type Static, type TSchema } from "typebox";
import type { ChannelName } from "./channel-names.js";
import { answerProblem, parseAnswer } from "./channel-answer.js";
import { channelCaller, jsonBody } from "./channel-http.js";
import { classifyChannelResponse } from "./classify.js";
import { GiveUpChannelError } from "./errors.js";

/**
 * What every grant's answer must hold (RFC 6749 section 5.1), as far as we read it; channels add
 * their own fields.
 */
export const TokenAnswer = Type.Object({
  access_token: Type.String({ minLength: 1 }),
  // Seconds; a few servers send them as text.
  expires_in: Type.Optional(Type.Union([Type.Number(), Type.String({ pattern: "^\\d+$" })])),
  refresh_token: Type.Optional(Type.String()),
});

/** A refused grant's answer (RFC 6749 section 5.2), read leniently: it only words the give-up. */
const RefusalAnswer = Type.Object({
  error: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  error_description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/**
 * The grant's answer, checked against `schema` (TokenAnswer or a channel's extension of it): a 2xx
 * without an access token is the endpoint's hiccup (retryable), never a token "undefined" stored.
 */
export async function tokenGrant<T extends TSchema = typeof TokenAnswer>(
  channel: ChannelName,
  request: { url: string; form: Record<string, string>; headers?: Record<string, string> },
  signal: AbortSignal,
  timeoutMs: number,
  schema: T = TokenAnswer as unknown as T,
): Promise<Static<T> & Record<string, unknown>> {
  const answer = await channelCaller(
    channel,
    signal,
    timeoutMs,
  )({
    method: "POST",
    url: request.url,
    body: new URLSearchParams(request.form),
    headers: { "content-type": "application/x-www-form-urlencoded", ...request.headers },
  });
  if (answer.status === 400 || answer.status === 401) {
    const body = jsonBody(channel, answer);
    const refusal: Static<typeof RefusalAnswer> = answerProblem(RefusalAnswer, body) ? {} : body;
    const said = refusal.error_description ?? refusal.error ?? String(answer.status);
    throw new GiveUpChannelError(`${channel} refused the token grant: ${said}`, {
      channel,
      status: 401,
      kind: "auth",
      channelMessage: said,
    });
  }
  const failure = classifyChannelResponse(channel, answer.status, answer.headers, answer.text);
  if (failure) throw failure;
  return parseAnswer(channel, answer, schema, "token answer");
}
