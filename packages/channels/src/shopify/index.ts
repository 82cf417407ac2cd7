// Shopify: Admin GraphQL (productSet as the upsert), OAuth with a signed callback.
import { Type } from "typebox";
import { defineChannel } from "../channel-definition.js";
import { productPreflight } from "../preflight.js";
import { shopifyProductProblems } from "./shopify-documents.js";
import { createShopifyAdapter } from "./shopify-adapter.js";
import { shopifyAccountFromToken, shopifyConnect } from "./shopify-connect.js";
import { shopifyApp, ShopifyEnvSchema } from "./shopify-env.js";
import { SHOP_DOMAIN_PATTERN } from "./shop-domain.js";

const Param = (description: string) => Type.Optional(Type.String({ description }));

export const shopifyDefinition = defineChannel({
  name: "shopify",
  displayName: "Shopify",
  env: ShopifyEnvSchema,
  app: shopifyApp,
  // Shopify needs no settings: a product goes to the shop as it is.
  settings: Type.Object({}),
  connectQuery: Type.Object({
    shop: Type.String({
      title: "Shop domain",
      description: "Your shop's myshopify.com address (Settings > Domains in Shopify admin)",
      examples: ["acme.myshopify.com"],
      pattern: SHOP_DOMAIN_PATTERN,
    }),
  }),
  callbackQuery: Type.Object({
    code: Param("The authorization code"),
    state: Param("The state from the connect redirect"),
    hmac: Param("The signature of the other parameters"),
    shop: Param("The shop's myshopify.com domain"),
    timestamp: Param("When Shopify signed the callback"),
  }),
  adapter: ({ timeoutMs }) => createShopifyAdapter(timeoutMs),
  preflight: productPreflight(shopifyProductProblems),
  connect: shopifyConnect,
  operatorAccount: {
    flags: { shop: "<shop>.myshopify.com" },
    secret: "the Admin API access token of a custom app",
    create: (context, flags, secret, signal) =>
      shopifyAccountFromToken(context, { shop: flags.shop ?? "", accessToken: secret }, signal),
  },
});

export { shopifyShopDomain, shopUrl } from "./shop-domain.js";
