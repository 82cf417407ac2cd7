// The catalog product as Etsy's Open API v3 takes it: the listing's fields (form-encoded), and its
// inventory (JSON): one product per SKU, variations on Etsy's two custom properties.
import { descriptionText } from "@catalog/db/description";
import type { PublishableProduct, PublishableVariant } from "../adapter.js";
import { missingField, toChannelAmount } from "../destination-fields.js";
import { GiveUpChannelError } from "../errors.js";
import { positivePriceProblems, throwFirst } from "../preflight.js";
import { unitsOf } from "../quantity.js";
import type { EtsySettings } from "./etsy-settings.js";

// Etsy's limits: titles 140 characters, 10 images per listing, 2 variation properties.
const MAX_TITLE = 140;
export const MAX_IMAGES = 10;
/** Etsy's ids for a shop's own variation properties ("custom1", "custom2"). */
const CUSTOM_PROPERTIES = [513, 514];

export function listingFields(
  product: PublishableProduct,
  settings: EtsySettings,
  creating: boolean,
): URLSearchParams {
  const fields: Record<string, string> = {
    title: [...product.title.trim()].slice(0, MAX_TITLE).join("").trim(),
    // Etsy's description is plain text: markup would show as it is.
    description:
      (product.description ? descriptionText(product.description) : "") || product.title.trim(),
    who_made: settings.whoMade,
    when_made: settings.whenMade,
    taxonomy_id: String(settings.taxonomyId),
    ...(settings.shippingProfileId
      ? { shipping_profile_id: String(settings.shippingProfileId) }
      : {}),
  };
  if (creating) {
    // Etsy creates a listing with at least one unit; the inventory that follows sets the real ones.
    fields.quantity = String(Math.max(1, unitsOf(product)));
    fields.price = toChannelAmount(product.priceAmount!);
    fields.readiness_state_id = String(settings.readinessStateId);
  }
  return new URLSearchParams(fields);
}

const optionNamesOf = (product: PublishableProduct) => [
  ...new Set(product.variants.flatMap((v) => Object.keys(v.options ?? {}))),
];

/** What Etsy would refuse, found before any call: the publish's checks, and a dry run's. */
export function etsyProductProblems(product: PublishableProduct): GiveUpChannelError[] {
  const problems: GiveUpChannelError[] = [];
  if (!product.title?.trim()) problems.push(missingField("etsy", product, "title"));
  if (!product.priceAmount?.trim()) problems.push(missingField("etsy", product, "priceAmount"));
  else problems.push(...positivePriceProblems("etsy", product, "Etsy lists nothing for free"));
  const names = optionNamesOf(product);
  if (names.length > CUSTOM_PROPERTIES.length) {
    problems.push(
      new GiveUpChannelError(
        `etsy takes at most ${CUSTOM_PROPERTIES.length} variation properties; product ${product.id} has ${names.length}`,
        {
          channel: "etsy",
          kind: "validation",
          field: "variants.options",
          channelMessage: `Etsy takes at most ${CUSTOM_PROPERTIES.length} variant options (${names.join(", ")} are ${names.length})`,
        },
      ),
    );
  }
  return problems;
}

export function inventory(
  product: PublishableProduct,
  settings: EtsySettings,
): Record<string, unknown> {
  throwFirst(etsyProductProblems(product));
  const names = optionNamesOf(product);
  // Etsy's API takes prices as JSON numbers; toChannelAmount keeps the decimal text exact up to
  // there.
  const offering = (amount: string, variant?: PublishableVariant) => [
    {
      price: Number(toChannelAmount(amount)),
      quantity: unitsOf(product, variant),
      is_enabled: true,
      readiness_state_id: settings.readinessStateId,
    },
  ];
  if (names.length === 0 || product.variants.length === 0) {
    return {
      products: [
        { sku: product.sku ?? "", property_values: [], offerings: offering(product.priceAmount!) },
      ],
    };
  }
  const propertyIds = names.map((_, i) => CUSTOM_PROPERTIES[i]!);
  return {
    products: product.variants.map((v) => ({
      sku: v.sku ?? "",
      property_values: names.map((name, i) => ({
        property_id: propertyIds[i],
        property_name: name,
        value_ids: [],
        values: [v.options?.[name] ?? "-"],
      })),
      offerings: offering(v.priceAmount?.trim() || product.priceAmount!, v),
    })),
    price_on_property: propertyIds,
    sku_on_property: propertyIds,
  };
}
