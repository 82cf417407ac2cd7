// A Shopify shop is named by its myshopify.com domain; anything else is refused before the
// gateway builds a URL from it, so a merchant cannot point the OAuth exchange (which carries
// the app's secret) at a host of their choosing.
// The same pattern is the connect form's check (`pattern` of the shop field), so a mistyped
// name is caught before the merchant leaves the dashboard.
export const SHOP_DOMAIN_PATTERN = "^[A-Za-z0-9][A-Za-z0-9-]*\\.myshopify\\.com$";
const SHOP_DOMAIN = new RegExp(SHOP_DOMAIN_PATTERN);

/** The shop's domain, lower-cased, or null when it is not a myshopify.com domain. */
export function shopifyShopDomain(input: string): string | null {
  const shop = input.trim();
  return SHOP_DOMAIN.test(shop) ? shop.toLowerCase() : null;
}

/** The shop's base URL from the configured template (`https://{shop}` in production). */
export const shopUrl = (template: string, shop: string): string => template.replace("{shop}", shop);
