import { Type, type Static } from "typebox";
import { envText } from "../channel-env.js";

export const WoocommerceEnvSchema = Type.Object({
  WOOCOMMERCE_APP_NAME: envText(
    "Catalog Service",
    "The name a WooCommerce store owner sees when asked to grant keys",
  ),
});

export const woocommerceApp = (env: Static<typeof WoocommerceEnvSchema>) => ({
  appName: env.WOOCOMMERCE_APP_NAME,
});

export type WoocommerceApp = ReturnType<typeof woocommerceApp>;
