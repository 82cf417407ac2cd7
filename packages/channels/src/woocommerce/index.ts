// WooCommerce: REST wc/v3 with consumer keys, the store's key-provisioning connect flow.
import { Type } from "typebox";
import { defineChannel } from "../channel-definition.js";
import { productPreflight } from "../preflight.js";
import { woocommerceProductProblems } from "./woocommerce-body.js";
import { createWoocommerceAdapter } from "./woocommerce-adapter.js";
import { woocommerceAccountFromKeys, woocommerceConnect } from "./woocommerce-connect.js";
import { woocommerceApp, WoocommerceEnvSchema } from "./woocommerce-env.js";

const Param = (description: string) => Type.Optional(Type.String({ description }));

export const woocommerceDefinition = defineChannel({
  name: "woocommerce",
  displayName: "WooCommerce",
  env: WoocommerceEnvSchema,
  app: woocommerceApp,
  // WooCommerce needs no settings.
  settings: Type.Object({}),
  connectQuery: Type.Object({
    storeUrl: Type.String({
      title: "Store address",
      description: "The public https address of your WordPress site running WooCommerce",
      examples: ["https://shop.example"],
    }),
  }),
  // The store's server first POSTs the keys ({ key_id, user_id, consumer_key, consumer_secret }),
  // then the browser returns.
  callbackQuery: Type.Object({
    user_id: Param("Carries the state"),
    success: Param("1 when the store owner approved"),
  }),
  adapter: ({ timeoutMs, allowPrivateStoreUrls }) =>
    createWoocommerceAdapter(timeoutMs, allowPrivateStoreUrls),
  preflight: productPreflight(woocommerceProductProblems),
  connect: woocommerceConnect,
  operatorAccount: {
    flags: { "store-url": "<https://store>", "consumer-key": "<ck_...>" },
    secret: "the consumer secret",
    create: (context, flags, secret, signal) =>
      woocommerceAccountFromKeys(
        context,
        {
          storeUrl: flags["store-url"] ?? "",
          consumerKey: flags["consumer-key"] ?? "",
          consumerSecret: secret,
        },
        signal,
      ),
  },
});
