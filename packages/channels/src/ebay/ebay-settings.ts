// What an eBay seller must choose before anything can be listed (eBay asks for them on every
// offer), checked when the merchant saves them and again before the first call of a publish.
import { Type, type Static } from "typebox";
import { assertSettingsComplete } from "../destination-fields.js";
import { checkSettings } from "../settings-check.js";

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

const Text = (title: string, description: string, placeholder?: string) =>
  Type.String({
    pattern: "\\S",
    title,
    description,
    ...(placeholder ? { examples: [placeholder] } : {}),
  });

// Where a seller finds each value is in its description: the dashboard shows it as the help.
export const EbaySettingsSchema = Type.Object({
  marketplaceId: Text("Marketplace", "The eBay site the listings go to", "EBAY_US"),
  categoryId: Text("Category id", "The eBay leaf category of the listings", "31388"),
  merchantLocationKey: Text(
    "Inventory location key",
    "The key of the inventory location items ship from (Seller Hub > Shipping > Locations)",
  ),
  paymentPolicyId: Text(
    "Payment policy id",
    "The id of the business policy for payment (Account > Business policies)",
  ),
  returnPolicyId: Text("Return policy id", "The id of the business policy for returns"),
  fulfillmentPolicyId: Text(
    "Shipping policy id",
    "The id of the business policy for shipping (fulfillment)",
  ),
  contentLanguage: Type.Optional(
    Text(
      "Listing language",
      "Needed only for a marketplace not listed by eBay's defaults; else taken from the marketplace",
      "en-US",
    ),
  ),
  currency: Type.Optional(
    Text(
      "Currency",
      "The currency of the prices; by default the product's, else the marketplace's",
      "USD",
    ),
  ),
  condition: Type.Optional(Text("Condition", "eBay's item condition", "NEW")),
});

type EbaySettingsInput = Static<typeof EbaySettingsSchema>;

/** A marketplace whose language we do not know needs contentLanguage. */
export function ebaySettingsRules(settings: Record<string, unknown>): string[] {
  const { marketplaceId, contentLanguage } = settings as Partial<EbaySettingsInput>;
  return typeof marketplaceId === "string" &&
    !MARKETPLACES[marketplaceId.trim()] &&
    !contentLanguage
    ? [
        `marketplaceId ${marketplaceId} is not one we know the language of: set contentLanguage too (e.g. en-US)`,
      ]
    : [];
}

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

/** The settings with defaults filled in; gives up naming every setting to fix before any call. */
export function ebaySettings(raw: Record<string, unknown>): EbaySettings {
  const { value, problems } = checkSettings(EbaySettingsSchema, raw);
  assertSettingsComplete("ebay", [
    ...problems,
    ...(problems.length === 0 ? ebaySettingsRules(value) : []),
  ]);
  const s = value as EbaySettingsInput;
  const marketplaceId = s.marketplaceId.trim();
  const known = MARKETPLACES[marketplaceId];
  const itemUrlBase =
    typeof raw.itemUrlBase === "string" && raw.itemUrlBase.trim() ? raw.itemUrlBase.trim() : null;
  return {
    marketplaceId,
    categoryId: s.categoryId.trim(),
    merchantLocationKey: s.merchantLocationKey.trim(),
    paymentPolicyId: s.paymentPolicyId.trim(),
    returnPolicyId: s.returnPolicyId.trim(),
    fulfillmentPolicyId: s.fulfillmentPolicyId.trim(),
    contentLanguage: s.contentLanguage?.trim() ?? known?.language ?? "en-US",
    currency: s.currency?.trim() ?? null,
    marketplaceCurrency: known?.currency ?? "USD",
    condition: s.condition?.trim() ?? "NEW",
    itemUrlBase: (itemUrlBase ?? known?.site ?? "https://www.ebay.com").replace(/\/+$/, ""),
  };
}
