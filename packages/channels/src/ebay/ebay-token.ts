// eBay's token endpoint (both grants): Basic client authentication, a form body.
import type { ChannelsConfig } from "@catalog/config";
import type { OAuthCredentials } from "../adapter.js";
import { channelCaller, jsonBody } from "../channel-http.js";
import { GiveUpChannelError } from "../errors.js";
import { classifyChannelResponse } from "../classify.js";

export async function requestEbayToken(
  app: ChannelsConfig["ebay"], apiUrl: string, form: Record<string, string>, signal: AbortSignal, timeoutMs: number,
): Promise<OAuthCredentials> {
  const answer = await channelCaller("ebay", signal, timeoutMs)({
    method: "POST", url: `${apiUrl}/identity/v1/oauth2/token`, body: new URLSearchParams(form),
    headers: { authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
  });
  // A refused grant (revoked or expired refresh token): the seller must connect again.
  if (answer.status === 400 || answer.status === 401) {
    const said = (jsonBody("ebay", answer).error_description as string | undefined) ?? `${answer.status}`;
    throw new GiveUpChannelError(`ebay refused the token grant: ${said}`, { channel: "ebay", status: 401, kind: "auth", channelMessage: said });
  }
  const failure = classifyChannelResponse("ebay", answer.status, answer.headers, answer.text);
  if (failure) throw failure;
  const body = jsonBody("ebay", answer);
  const now = Date.now();
  return {
    accessToken: String(body.access_token),
    ...(typeof body.refresh_token === "string" ? { refreshToken: body.refresh_token } : {}),
    expiresAt: now + Number(body.expires_in ?? 7200) * 1000,
    ...(body.refresh_token_expires_in ? { refreshExpiresAt: now + Number(body.refresh_token_expires_in) * 1000 } : {}),
  };
}
