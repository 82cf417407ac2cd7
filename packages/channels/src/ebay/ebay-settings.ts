// What an eBay seller must choose before anything can be listed (eBay asks for them on every
// offer), checked when the merchant saves them and again before the first call of a publish.
const REQUIRED = ["marketplaceId", "categoryId", "merchantLocationKey", "paymentPolicyId", "returnPolicyId", "fulfillmentPolicyId"] as const;

const MARKETPLACES: Record<string, { language: string; currency: string; site: string }> = {
  EBAY_US: { language: "en-US", currency: "USD", site: "https://www.ebay.com" },
  EBAY_GB: { language: "en-GB", currency: "GBP", site: "https://www.ebay.co.uk" },
  EBAY_DE: { language: "de-DE", currency: "EUR", site: "https://www.ebay.de" },
  EBAY_FR: { language: "fr-FR", currency: "EUR", site: "https://www.ebay.fr" },
  EBAY_IT: { language: "it-IT", currency: "EUR", site: "https://www.ebay.it" },
  EBAY_ES: { language: "es-ES", currency: "EUR", site: "https://www.ebay.es" },
  EBAY_AU: { language: "en-AU", currency: "AUD", site: "https://www.ebay.com.au" },
  EBAY_CA: { language: "en-CA", currency: "CAD", site: "https://www.ebay.ca" },
};

export interface EbaySettings {
  marketplaceId: string;
  categoryId: string;
  merchantLocationKey: string;
  paymentPolicyId: string;
  returnPolicyId: string;
  fulfillmentPolicyId: string;
  contentLanguage: string;
  /** Set by the seller; else the product's currency, else the marketplace's. */
  currency: string | null;
  marketplaceCurrency: string;
  condition: string;
  /** Where a listing is shown: `<itemUrlBase>/itm/<listingId>`. */
  itemUrlBase: string;
}

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : typeof value === "number" ? String(value) : null);

export function checkEbaySettings(settings: Record<string, unknown>): string[] {
  const problems: string[] = REQUIRED.filter((name) => !text(settings[name])).map((name) => `${name} is required`);
  const marketplace = text(settings.marketplaceId);
  if (marketplace && !MARKETPLACES[marketplace] && !text(settings.contentLanguage)) {
    problems.push(`marketplaceId ${marketplace} is not one we know the language of: set contentLanguage too (e.g. en-US)`);
  }
  return problems;
}

/** The settings with defaults filled in; call after checkEbaySettings found nothing. */
export function ebaySettings(settings: Record<string, unknown>): EbaySettings {
  const marketplaceId = text(settings.marketplaceId)!;
  const known = MARKETPLACES[marketplaceId];
  return {
    marketplaceId,
    categoryId: text(settings.categoryId)!,
    merchantLocationKey: text(settings.merchantLocationKey)!,
    paymentPolicyId: text(settings.paymentPolicyId)!,
    returnPolicyId: text(settings.returnPolicyId)!,
    fulfillmentPolicyId: text(settings.fulfillmentPolicyId)!,
    contentLanguage: text(settings.contentLanguage) ?? known?.language ?? "en-US",
    currency: text(settings.currency),
    marketplaceCurrency: known?.currency ?? "USD",
    condition: text(settings.condition) ?? "NEW",
    itemUrlBase: (text(settings.itemUrlBase) ?? known?.site ?? "https://www.ebay.com").replace(/\/+$/, ""),
  };
}
