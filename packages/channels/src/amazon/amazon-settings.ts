// What an Amazon listing needs besides the product: the seller and marketplace (set when the
// seller connects), the product type whose definition the attributes are checked against, and
// the offer's defaults. Checked when saved and again before the first call of a publish.
import { Type, type Static } from "typebox";
import { assertSettingsComplete } from "../destination-fields.js";
import { checkSettings } from "../settings-check.js";

const CONDITIONS = [
  "new_new",
  "new_open_box",
  "new_oem",
  "refurbished_refurbished",
  "used_like_new",
  "used_very_good",
  "used_good",
  "used_acceptable",
  "collectible_like_new",
  "collectible_very_good",
  "collectible_good",
  "collectible_acceptable",
  "club_club",
] as const;

/** Marketplaces whose currency and language we know; others need `currency` and `languageTag`. */
const MARKETPLACES: Record<string, { currency: string; language: string; site: string }> = {
  ATVPDKIKX0DER: { currency: "USD", language: "en_US", site: "https://www.amazon.com" },
  A2EUQ1WTGCTBG2: { currency: "CAD", language: "en_CA", site: "https://www.amazon.ca" },
  A1F83G8C2ARO7P: { currency: "GBP", language: "en_GB", site: "https://www.amazon.co.uk" },
  A1PA6795UKMFR9: { currency: "EUR", language: "de_DE", site: "https://www.amazon.de" },
  A13V1IB3VIYZZH: { currency: "EUR", language: "fr_FR", site: "https://www.amazon.fr" },
  APJ6JRA9NG5V4: { currency: "EUR", language: "it_IT", site: "https://www.amazon.it" },
  A1RKKUPIHCS9HS: { currency: "EUR", language: "es_ES", site: "https://www.amazon.es" },
};

const Text = (title: string, description: string, placeholder?: string) =>
  Type.String({
    pattern: "\\S",
    title,
    description,
    ...(placeholder ? { examples: [placeholder] } : {}),
  });

export const AmazonSettingsSchema = Type.Object({
  sellerId: Text(
    "Selling partner id",
    "Your merchant token: set when the seller account is connected",
  ),
  marketplaceId: Text(
    "Marketplace id",
    "The Amazon store the listings go to (ATVPDKIKX0DER is amazon.com)",
    "ATVPDKIKX0DER",
  ),
  productType: Text(
    "Product type",
    "The Amazon product type of the listings; their attributes are checked against its definition",
    "HOME",
  ),
  condition: Type.Optional(
    Type.Union(
      CONDITIONS.map((c) => Type.Literal(c)),
      {
        title: "Condition",
        description: "Amazon's condition_type (default new_new)",
        examples: ["new_new"],
      },
    ),
  ),
  quantity: Type.Optional(
    Type.Integer({
      minimum: 0,
      title: "Quantity",
      description: "Units offered of an item in stock, fulfilled by you (default 1)",
      examples: ["1"],
    }),
  ),
  fulfillmentChannelCode: Type.Optional(
    Text(
      "Fulfillment channel",
      "DEFAULT (you ship) or an Amazon fulfillment network code such as AMAZON_NA",
      "DEFAULT",
    ),
  ),
  currency: Type.Optional(
    Text("Currency", "The currency of the prices; by default the marketplace's", "USD"),
  ),
  languageTag: Type.Optional(
    Text(
      "Language",
      "The language of titles and descriptions; by default the marketplace's",
      "en_US",
    ),
  ),
});

type AmazonSettingsInput = Static<typeof AmazonSettingsSchema>;

export function amazonSettingsRules(settings: Record<string, unknown>): string[] {
  const { marketplaceId, currency, languageTag } = settings as Partial<AmazonSettingsInput>;
  if (typeof marketplaceId !== "string" || MARKETPLACES[marketplaceId.trim()]) return [];
  return currency && languageTag
    ? []
    : [
        `marketplaceId ${marketplaceId} is not one we know the currency and language of: set currency and languageTag too`,
      ];
}

export interface AmazonSettings {
  sellerId: string;
  marketplaceId: string;
  productType: string;
  condition: string;
  quantity: number;
  fulfillmentChannelCode: string;
  currency: string;
  languageTag: string;
  /**
   * Where a listing is shown: `<site>/dp/<asin>`, or Seller Central's inventory page before an ASIN
   * exists.
   */
  site: string;
}

/** The settings with defaults filled in; gives up naming every setting to fix, before any call. */
export function amazonSettings(raw: Record<string, unknown>): AmazonSettings {
  const { value, problems } = checkSettings(AmazonSettingsSchema, raw);
  assertSettingsComplete("amazon", [
    ...problems,
    ...(problems.length === 0 ? amazonSettingsRules(value) : []),
  ]);
  const s = value as AmazonSettingsInput;
  const marketplaceId = s.marketplaceId.trim();
  const known = MARKETPLACES[marketplaceId];
  return {
    sellerId: s.sellerId.trim(),
    marketplaceId,
    productType: s.productType.trim().toUpperCase(),
    condition: s.condition ?? "new_new",
    quantity: s.quantity ?? 1,
    fulfillmentChannelCode: s.fulfillmentChannelCode?.trim() ?? "DEFAULT",
    currency: (s.currency?.trim() ?? known?.currency ?? "USD").toUpperCase(),
    languageTag: s.languageTag?.trim() ?? known?.language ?? "en_US",
    site: known?.site ?? "https://www.amazon.com",
  };
}
