// An OAuth 2 token endpoint (RFC 6749 section 4.1.3 and 6): a form POST answered with JSON.
// A refused grant (400 or 401: a revoked or expired code or refresh token) means the merchant
// must connect again; other failures are classified like any channel answer.
import type { ChannelName } from "./adapter.js";
import { channelCaller, jsonBody } from "./channel-http.js";
import { classifyChannelResponse } from "./classify.js";
import { GiveUpChannelError } from "./errors.js";

export async function tokenGrant(
  channel: ChannelName, request: { url: string; form: Record<string, string>; headers?: Record<string, string> }, signal: AbortSignal, timeoutMs: number,
): Promise<Record<string, unknown>> {
  const answer = await channelCaller(channel, signal, timeoutMs)({
    method: "POST", url: request.url, body: new URLSearchParams(request.form),
    headers: { "content-type": "application/x-www-form-urlencoded", ...request.headers },
  });
  if (answer.status === 400 || answer.status === 401) {
    const body = jsonBody(channel, answer);
    const said = String(body.error_description ?? body.error ?? answer.status);
    throw new GiveUpChannelError(`${channel} refused the token grant: ${said}`, { channel, status: 401, kind: "auth", channelMessage: said });
  }
  const failure = classifyChannelResponse(channel, answer.status, answer.headers, answer.text);
  if (failure) throw failure;
  return jsonBody(channel, answer);
}
