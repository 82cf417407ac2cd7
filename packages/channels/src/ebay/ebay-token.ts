// eBay's token endpoint (both grants): Basic client authentication, a form body.
import { Type } from "typebox";
import type { EbayApp } from "./ebay-env.js";
import type { OAuthCredentials } from "../adapter.js";
import { tokenGrant, TokenAnswer } from "../oauth-token.js";

/**
 * The code grant adds the refresh token and its lifetime; a refresh gives only the access token.
 */
const EbayTokenAnswer = Type.Object({
  ...TokenAnswer.properties,
  refresh_token_expires_in: Type.Optional(TokenAnswer.properties.expires_in),
});

export async function requestEbayToken(
  app: EbayApp,
  apiUrl: string,
  form: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<OAuthCredentials> {
  const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
  const body = await tokenGrant(
    "ebay",
    {
      url: `${apiUrl}/identity/v1/oauth2/token`,
      form,
      headers: { authorization: `Basic ${basic}` },
    },
    signal,
    timeoutMs,
    EbayTokenAnswer,
  );
  const now = Date.now();
  return {
    accessToken: body.access_token,
    ...(typeof body.refresh_token === "string" ? { refreshToken: body.refresh_token } : {}),
    expiresAt: now + Number(body.expires_in ?? 7200) * 1000,
    ...(body.refresh_token_expires_in
      ? { refreshExpiresAt: now + Number(body.refresh_token_expires_in) * 1000 }
      : {}),
  };
}
