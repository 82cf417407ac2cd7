import type { ProductCandidate } from "../product-candidate.js";
import type { VariantDraft } from "./price-fields.js";

/**
 * A variant from a row read as a whole product (its price, stock, gtin, first image), with the
 * options that tell it apart from the other rows of its group.
 */
export function variantFromProduct(
  p: ProductCandidate,
  title: string | null,
  options: Record<string, string>,
): VariantDraft {
  const withoutCurrency = p.attributes.priceWithoutCurrency;
  return {
    variant: {
      sku: p.sku,
      title,
      price: p.price,
      options,
      gtin: p.gtin,
      availability: p.availability,
      image: p.images[0] ?? null,
      ...(p.quantity !== null ? { quantity: p.quantity } : {}),
    },
    amountWithoutCurrency:
      p.price === null && typeof withoutCurrency === "string" ? withoutCurrency : null,
  };
}

/**
 * The title of a group no row stands for (Google's `item_group_id`, variant rows whose parent is
 * in no row): the words every title starts with, without a trailing " -", "," or "|" ("Women's
 * Shirt - Blue - S" and "Women's Shirt - Red - M" give "Women's Shirt"); when they share no word
 * ("Red Mug", "Blue Mug"), the first title without the option values ("Mug"); when that leaves
 * nothing, the first title.
 */
export function groupTitle(titles: readonly string[], optionValues: readonly string[]): string {
  const first = titles[0] ?? "";
  if (titles.every((t) => t === first)) return first;
  const words = titles.map((t) => t.split(/\s+/));
  const common: string[] = [];
  for (let i = 0; words.every((w) => w[i] !== undefined && w[i] === words[0]![i]); i++)
    common.push(words[0]![i]!);
  const prefix = common
    .join(" ")
    .replace(/[\s,|/(–-]+$/u, "")
    .trim();
  if (/\p{L}/u.test(prefix)) return prefix;
  const drop = new Set(optionValues.map((v) => v.toLowerCase()));
  const stripped = first
    .split(/\s+/)
    .filter((w) => !drop.has(w.replace(/[,;|()]/g, "").toLowerCase()))
    .join(" ")
    .replace(/\s*[,|/–-]\s*$/u, "")
    .replace(/^\s*[,|/–-]\s*/u, "")
    .trim();
  return stripped || first;
}
