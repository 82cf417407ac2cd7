// eBay's token endpoint (both grants): Basic client authentication, a form body.
import type { EbayApp } from "./ebay-env.js";
import type { OAuthCredentials } from "../adapter.js";
import { tokenGrant } from "../oauth-token.js";

export async function requestEbayToken(
  app: EbayApp, apiUrl: string, form: Record<string, string>, signal: AbortSignal, timeoutMs: number,
): Promise<OAuthCredentials> {
  const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
  const body = await tokenGrant("ebay", { url: `${apiUrl}/identity/v1/oauth2/token`, form, headers: { authorization: `Basic ${basic}` } }, signal, timeoutMs);
  const now = Date.now();
  return {
    accessToken: String(body.access_token),
    ...(typeof body.refresh_token === "string" ? { refreshToken: body.refresh_token } : {}),
    expiresAt: now + Number(body.expires_in ?? 7200) * 1000,
    ...(body.refresh_token_expires_in ? { refreshExpiresAt: now + Number(body.refresh_token_expires_in) * 1000 } : {}),
  };
}
