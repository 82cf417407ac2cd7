// Etsy's OAuth 2 with PKCE (S256): the verifier stays server-side with the state; after the code
// is exchanged, the shop is found from the user id Etsy puts in front of the access token.
import { createHash, randomBytes } from "node:crypto";
import { Type, type Static } from "typebox";
import { answerProblem } from "../channel-answer.js";
import type { ChannelContext } from "../channel-definition.js";
import { ConnectError, type ConnectFlow } from "../connect.js";
import { isChannelError } from "../errors.js";
import { etsyApiKey } from "./etsy-adapter.js";
import type { EtsyApp } from "./etsy-env.js";
import { requestEtsyToken } from "./etsy-token.js";

/** The user's shop, as far as connecting reads it. */
const ShopAnswer = Type.Object({
  shop_id: Type.Integer(),
  shop_name: Type.Optional(Type.String()),
});

export function etsyConnect({ app }: ChannelContext<EtsyApp>): ConnectFlow {
  return {
    channel: "etsy",
    missingConfiguration: () => (app.clientId ? [] : ["ETSY_CLIENT_ID"]),
    async start({ state, redirectUri }) {
      const codeVerifier = randomBytes(48).toString("base64url");
      const url = new URL(app.connectUrl);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: app.clientId,
        redirect_uri: redirectUri,
        scope: app.scopes,
        state,
        code_challenge: createHash("sha256").update(codeVerifier).digest("base64url"),
        code_challenge_method: "S256",
      }).toString();
      return { url: url.toString(), pending: { codeVerifier } };
    },
    async finish({ params, pending, redirectUri, signal }) {
      if (params.error)
        throw new ConnectError(403, `the Etsy shop owner refused access (${params.error})`);
      if (!params.code) throw new ConnectError(400, "the callback carries no code");
      try {
        const credentials = await requestEtsyToken(
          app.apiUrl,
          {
            grant_type: "authorization_code",
            client_id: app.clientId,
            redirect_uri: redirectUri,
            code: params.code,
            code_verifier: pending.codeVerifier ?? "",
          },
          signal,
          15_000,
        );
        const userId = credentials.accessToken.split(".")[0];
        const response = await fetch(
          `${app.apiUrl}/v3/application/users/${encodeURIComponent(userId ?? "")}/shops`,
          {
            headers: {
              authorization: `Bearer ${credentials.accessToken}`,
              "x-api-key": etsyApiKey(app),
              accept: "application/json",
            },
            signal,
          },
        );
        const body: unknown = await response.json().catch(() => undefined);
        if (!response.ok || answerProblem(ShopAnswer, body))
          throw new ConnectError(
            502,
            `etsy did not name the user's shop (${response.status}): does the account have a shop?`,
          );
        const shop = body as Static<typeof ShopAnswer>;
        const shopId = String(shop.shop_id);
        return {
          name: shop.shop_name ?? `Etsy shop ${shopId}`,
          externalId: shopId,
          baseUrl: app.apiUrl,
          credentials: { ...credentials },
          settings: { shopId },
        };
      } catch (error) {
        if (isChannelError(error))
          throw new ConnectError(502, `Etsy's token endpoint refused the code: ${error.message}`);
        throw error;
      }
    },
  };
}
