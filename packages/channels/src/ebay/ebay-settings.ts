// What an eBay seller must choose before anything can be listed (eBay asks for them on every
// offer), checked when the merchant saves them and again before the first call of a publish.
import { Type, type Static } from "typebox";
import { assertSettingsComplete } from "../destination-fields.js";
import type { FieldChoices } from "../channel-fields.js";
import { checkSettings } from "../settings-check.js";

/** The eBay sites whose language, currency and address we know. */
export const MARKETPLACES: Record<
  string,
  { name: string; language: string; currency: string; site: string }
> = {
  EBAY_US: {
    name: "United States",
    language: "en-US",
    currency: "USD",
    site: "https://www.ebay.com",
  },
  EBAY_GB: {
    name: "United Kingdom",
    language: "en-GB",
    currency: "GBP",
    site: "https://www.ebay.co.uk",
  },
  EBAY_DE: { name: "Germany", language: "de-DE", currency: "EUR", site: "https://www.ebay.de" },
  EBAY_FR: { name: "France", language: "fr-FR", currency: "EUR", site: "https://www.ebay.fr" },
  EBAY_IT: { name: "Italy", language: "it-IT", currency: "EUR", site: "https://www.ebay.it" },
  EBAY_ES: { name: "Spain", language: "es-ES", currency: "EUR", site: "https://www.ebay.es" },
  EBAY_AU: {
    name: "Australia",
    language: "en-AU",
    currency: "AUD",
    site: "https://www.ebay.com.au",
  },
  EBAY_CA: { name: "Canada", language: "en-CA", currency: "CAD", site: "https://www.ebay.ca" },
};

const Text = (
  title: string,
  description: string,
  more: { placeholder?: string; choices?: FieldChoices } = {},
) =>
  Type.String({
    pattern: "\\S",
    title,
    description,
    ...(more.placeholder ? { examples: [more.placeholder] } : {}),
    ...(more.choices ? { choices: more.choices } : {}),
  });

// Where a seller finds each value is in its description: the dashboard shows it as the help. The
// policies, locations and categories are offered from the seller's own account (`choices`).
export const EbaySettingsSchema = Type.Object({
  marketplaceId: Text("Marketplace", "The eBay site the listings go to", {
    placeholder: "EBAY_US",
    choices: "list",
  }),
  categoryId: Text("Category", "The eBay leaf category of the listings", {
    placeholder: "31388",
    choices: "search",
  }),
  merchantLocationKey: Text(
    "Inventory location",
    "Where items ship from: one of your inventory locations (Seller Hub > Shipping > Locations)",
    { choices: "list" },
  ),
  paymentPolicyId: Text(
    "Payment policy",
    "Your business policy for payment (Account > Business policies)",
    { choices: "list" },
  ),
  returnPolicyId: Text("Return policy", "Your business policy for returns", { choices: "list" }),
  fulfillmentPolicyId: Text("Shipping policy", "Your business policy for shipping (fulfillment)", {
    choices: "list",
  }),
  contentLanguage: Type.Optional(
    Text(
      "Listing language",
      "Needed only for a marketplace not listed by eBay's defaults; else taken from the marketplace",
      { placeholder: "en-US" },
    ),
  ),
  currency: Type.Optional(
    Text(
      "Currency",
      "The currency of the prices; by default the product's, else the marketplace's",
      {
        placeholder: "USD",
      },
    ),
  ),
  condition: Type.Optional(Text("Condition", "eBay's item condition", { placeholder: "NEW" })),
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
