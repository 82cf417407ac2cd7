// Login with Amazon's token endpoint, for both grants: the client id and secret travel in the
// form body (LWA takes no Basic authentication), access tokens live an hour, refresh tokens do
// not expire until the seller revokes the app.
import type { OAuthCredentials } from "../adapter.js";
import { tokenGrant } from "../oauth-token.js";
import type { AmazonApp } from "./amazon-env.js";

export async function requestLwaToken(
  app: AmazonApp,
  form: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<OAuthCredentials> {
  const body = await tokenGrant(
    "amazon",
    {
      url: app.tokenUrl,
      form: { ...form, client_id: app.clientId, client_secret: app.clientSecret },
    },
    signal,
    timeoutMs,
  );
  return {
    accessToken: String(body.access_token),
    ...(typeof body.refresh_token === "string" ? { refreshToken: body.refresh_token } : {}),
    expiresAt: Date.now() + Number(body.expires_in ?? 3600) * 1000,
  };
}
