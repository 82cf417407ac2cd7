// Etsy's OAuth 2 with PKCE (S256): the verifier stays server-side with the state; after the code
// is exchanged, the shop is found from the user id Etsy puts in front of the access token.
import { createHash, randomBytes } from "node:crypto";
import type { ChannelContext } from "../channel-definition.js";
import { ConnectError, type ConnectFlow } from "../connect.js";
import { isChannelError } from "../errors.js";
import { etsyApiKey } from "./etsy-adapter.js";
import type { EtsyApp } from "./etsy-env.js";
import { requestEtsyToken } from "./etsy-token.js";

export function etsyConnect({ app }: ChannelContext<EtsyApp>): ConnectFlow {
  return {
    channel: "etsy",
    missingConfiguration: () => (app.clientId ? [] : ["ETSY_CLIENT_ID"]),
    async start({ state, redirectUri }) {
      const codeVerifier = randomBytes(48).toString("base64url");
      const url = new URL(app.connectUrl);
      url.search = new URLSearchParams({
        response_type: "code", client_id: app.clientId, redirect_uri: redirectUri, scope: app.scopes, state,
        code_challenge: createHash("sha256").update(codeVerifier).digest("base64url"), code_challenge_method: "S256",
      }).toString();
      return { url: url.toString(), pending: { codeVerifier } };
    },
    async finish({ params, pending, redirectUri, signal }) {
      if (params.error) throw new ConnectError(403, `the Etsy shop owner refused access (${params.error})`);
      if (!params.code) throw new ConnectError(400, "the callback carries no code");
      try {
        const credentials = await requestEtsyToken(app.apiUrl, {
          grant_type: "authorization_code", client_id: app.clientId, redirect_uri: redirectUri, code: params.code, code_verifier: pending.codeVerifier ?? "",
        }, signal, 15_000);
        const userId = credentials.accessToken.split(".")[0];
        const response = await fetch(`${app.apiUrl}/v3/application/users/${encodeURIComponent(userId ?? "")}/shops`, {
          headers: { authorization: `Bearer ${credentials.accessToken}`, "x-api-key": etsyApiKey(app), accept: "application/json" }, signal,
        });
        const shop = (await response.json().catch(() => ({}))) as { shop_id?: number; shop_name?: string };
        if (!response.ok || typeof shop.shop_id !== "number") throw new ConnectError(502, `etsy did not name the user's shop (${response.status}): does the account have a shop?`);
        const shopId = String(shop.shop_id);
        return { name: shop.shop_name ?? `Etsy shop ${shopId}`, externalId: shopId, baseUrl: app.apiUrl, credentials: { ...credentials }, settings: { shopId } };
      } catch (error) {
        if (isChannelError(error)) throw new ConnectError(502, `Etsy's token endpoint refused the code: ${error.message}`);
        throw error;
      }
    },
  };
}
