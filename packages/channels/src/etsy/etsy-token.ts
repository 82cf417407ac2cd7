// Etsy's token endpoint (code with PKCE, or refresh token): a form body, no client secret.
import type { OAuthCredentials } from "../adapter.js";
import { channelCaller, jsonBody } from "../channel-http.js";
import { classifyChannelResponse } from "../classify.js";
import { GiveUpChannelError } from "../errors.js";

/** Etsy's refresh tokens last 90 days. */
const REFRESH_LIFETIME_MS = 90 * 24 * 3600 * 1000;

export async function requestEtsyToken(apiUrl: string, form: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<OAuthCredentials> {
  const answer = await channelCaller("etsy", signal, timeoutMs)({
    method: "POST", url: `${apiUrl}/v3/public/oauth/token`, body: new URLSearchParams(form), headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  if (answer.status === 400 || answer.status === 401) {
    const body = jsonBody("etsy", answer);
    const said = String(body.error_description ?? body.error ?? answer.status);
    throw new GiveUpChannelError(`etsy refused the token grant: ${said}`, { channel: "etsy", status: 401, kind: "auth", channelMessage: said });
  }
  const failure = classifyChannelResponse("etsy", answer.status, answer.headers, answer.text);
  if (failure) throw failure;
  const body = jsonBody("etsy", answer);
  const now = Date.now();
  return {
    accessToken: String(body.access_token), refreshToken: String(body.refresh_token),
    expiresAt: now + Number(body.expires_in ?? 3600) * 1000, refreshExpiresAt: now + REFRESH_LIFETIME_MS,
  };
}
