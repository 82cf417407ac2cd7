// A Shopify shop is named by its myshopify.com domain; anything else is refused before the
// gateway builds a URL from it, so a merchant cannot point the OAuth exchange (which carries
// the app's secret) at a host of their choosing.
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** The shop's domain, lower-cased, or null when it is not a myshopify.com domain. */
export function shopifyShopDomain(input: string): string | null {
  const shop = input.trim().toLowerCase();
  return SHOP_DOMAIN.test(shop) ? shop : null;
}

/** The shop's base URL from the configured template (`https://{shop}` in production). */
export const shopUrl = (template: string, shop: string): string => template.replace("{shop}", shop);
