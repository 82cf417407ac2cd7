// Etsy's token endpoint (code with PKCE, or refresh token): a form body, no client secret.
import { Type } from "typebox";
import type { OAuthCredentials } from "../adapter.js";
import { tokenGrant, TokenAnswer } from "../oauth-token.js";

/** Etsy's refresh tokens last 90 days. */
const REFRESH_LIFETIME_MS = 90 * 24 * 3600 * 1000;

/** Etsy rotates refresh tokens: every grant's answer carries the next one. */
const EtsyTokenAnswer = Type.Object({
  ...TokenAnswer.properties,
  refresh_token: Type.String({ minLength: 1 }),
});

export async function requestEtsyToken(
  apiUrl: string,
  form: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<OAuthCredentials> {
  const body = await tokenGrant(
    "etsy",
    { url: `${apiUrl}/v3/public/oauth/token`, form },
    signal,
    timeoutMs,
    EtsyTokenAnswer,
  );
  const now = Date.now();
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: now + Number(body.expires_in ?? 3600) * 1000,
    refreshExpiresAt: now + REFRESH_LIFETIME_MS,
  };
}
