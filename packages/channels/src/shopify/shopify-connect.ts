// Shopify's OAuth: the merchant approves on their shop's authorize page; the callback is signed
// with the app's secret (hmac over the other parameters), and the code is exchanged for an
// offline access token, which does not expire.
import { createHmac, timingSafeEqual } from "node:crypto";
import { Type, type Static } from "typebox";
import { answerProblem } from "../channel-answer.js";
import type { ChannelContext } from "../channel-definition.js";
import type { ShopifyApp } from "./shopify-env.js";
import { ConnectError, type ConnectedAccount, type ConnectFlow } from "../connect.js";
import { shopifyShopDomain, shopUrl } from "./shop-domain.js";
import { API_VERSION, SHOP_CHECK } from "./shopify-documents.js";

// The parts of Shopify's answers the connect flows read.
const AccessTokenAnswer = Type.Object({
  access_token: Type.String({ minLength: 1 }),
  scope: Type.Optional(Type.String()),
});
const ShopCheckAnswer = Type.Object({
  data: Type.Object({ shop: Type.Object({ name: Type.String() }) }),
});

/** The JSON of a fetch answer, or undefined when it is not JSON. */
async function jsonOf(response: Response): Promise<unknown> {
  return response.json().catch(() => undefined);
}

/** Shopify's signature: hex HMAC-SHA256 of the parameters but `hmac`, sorted, joined k=v&k=v. */
export function shopifySignature(params: Record<string, string>, secret: string): string {
  const message = Object.keys(params)
    .filter((k) => k !== "hmac" && k !== "signature")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  return createHmac("sha256", secret).update(message).digest("hex");
}

function signatureValid(params: Record<string, string>, secret: string): boolean {
  const given = Buffer.from(params.hmac ?? "", "hex");
  const expected = Buffer.from(shopifySignature(params, secret), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function shopifyConnect({ app }: ChannelContext<ShopifyApp>): ConnectFlow {
  const { clientId, clientSecret, scopes } = app;
  return {
    channel: "shopify",
    missingConfiguration: () =>
      [!clientId && "SHOPIFY_CLIENT_ID", !clientSecret && "SHOPIFY_CLIENT_SECRET"].filter(
        (v): v is string => !!v,
      ),
    async start({ state, redirectUri, query }) {
      const shop = shopifyShopDomain(query.shop ?? "");
      if (!shop)
        throw new ConnectError(
          422,
          "querystring/shop must be the shop's myshopify.com domain, e.g. acme.myshopify.com",
        );
      const url = new URL(`${shopUrl(app.shopUrl, shop)}/admin/oauth/authorize`);
      url.search = new URLSearchParams({
        client_id: clientId,
        scope: scopes,
        redirect_uri: redirectUri,
        state,
      }).toString();
      return { url: url.toString(), pending: { shop } };
    },
    async finish({ params, pending, signal }) {
      if (params.error)
        throw new ConnectError(403, `the shop owner refused access (${params.error})`);
      if (!signatureValid(params, clientSecret))
        throw new ConnectError(
          401,
          "the callback's hmac does not match: it was not signed by Shopify with this app's secret",
        );
      if (params.shop !== pending.shop)
        throw new ConnectError(
          403,
          `the callback names shop ${params.shop ?? "(none)"}, not ${pending.shop}`,
        );
      if (!params.code) throw new ConnectError(400, "the callback carries no code");
      const baseUrl = shopUrl(app.shopUrl, pending.shop!);
      let response: Response;
      try {
        response = await fetch(`${baseUrl}/admin/oauth/access_token`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          signal,
          body: JSON.stringify({
            client_id: clientId,
            client_secret: clientSecret,
            code: params.code,
          }),
        });
      } catch (error) {
        throw new ConnectError(
          502,
          `shopify token endpoint could not be reached: ${(error as Error).message}`,
        );
      }
      if (!response.ok)
        throw new ConnectError(502, `shopify token endpoint answered ${response.status}`);
      const body = await jsonOf(response);
      const problem = answerProblem(AccessTokenAnswer, body);
      if (problem)
        throw new ConnectError(
          502,
          `shopify token endpoint answered ${response.status} with an unexpected token answer: ${problem}`,
        );
      const token = body as Static<typeof AccessTokenAnswer>;
      return {
        name: pending.shop!,
        externalId: pending.shop!,
        baseUrl,
        credentials: { accessToken: token.access_token, scope: token.scope ?? scopes },
        settings: {},
      };
    },
  };
}

/**
 * A shop added from a custom app's Admin API access token the operator already has (no OAuth):
 * the token is tried on the shop before it is kept.
 */
export async function shopifyAccountFromToken(
  { app }: ChannelContext<ShopifyApp>,
  input: { shop: string; accessToken: string },
  signal: AbortSignal,
): Promise<ConnectedAccount> {
  const shop = shopifyShopDomain(input.shop);
  if (!shop)
    throw new ConnectError(
      422,
      "the shop must be its myshopify.com domain, e.g. acme.myshopify.com",
    );
  if (!input.accessToken.trim()) throw new ConnectError(422, "the access token is empty");
  const baseUrl = shopUrl(app.shopUrl, shop);
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/admin/api/${API_VERSION}/graphql.json`, {
      method: "POST",
      signal,
      body: JSON.stringify({ query: SHOP_CHECK }),
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-shopify-access-token": input.accessToken.trim(),
      },
    });
  } catch (error) {
    throw new ConnectError(
      502,
      `${shop} could not be reached to check the token: ${(error as Error).message}`,
    );
  }
  if (response.status === 401 || response.status === 403)
    throw new ConnectError(401, `${shop} refused the access token (${response.status})`);
  const body = await jsonOf(response);
  if (!response.ok || answerProblem(ShopCheckAnswer, body)) {
    const errors =
      body && typeof body === "object" ? (body as { errors?: unknown }).errors : undefined;
    throw new ConnectError(
      502,
      `${shop} answered ${response.status} when the token was checked${errors ? `: ${JSON.stringify(errors).slice(0, 300)}` : ""}`,
    );
  }
  return {
    name: shop,
    externalId: shop,
    baseUrl,
    credentials: { accessToken: input.accessToken.trim() },
    settings: {},
  };
}
