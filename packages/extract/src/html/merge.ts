import { emptyCandidate, type ProductCandidate } from "../product-candidate.js";
import type { Found, FoundField } from "./found.js";
import { currencyCode } from "./read-amount.js";
import { wordSet } from "./text.js";
import { hasPrice } from "./title-price.js";

const SIMPLE_FIELDS = ["sku", "gtin", "mpn", "brand", "description", "availability"] as const;

/**
 * One candidate from what each source found, earlier sources winning field by field. A price
 * without a currency takes the currency its own source states elsewhere, then any other
 * source's, then the page's country; with none, it is kept as an attribute, not guessed.
 */
export function mergeFound(
  found: Found[],
  sourceUrl: string | null,
  fallbackCurrency: string | null,
): ProductCandidate {
  const candidate = emptyCandidate(sourceUrl);
  const first = (field: FoundField): Found | undefined =>
    found.find((f) => f.values[field] !== undefined);
  const note = (field: FoundField, from: Found): void => {
    candidate.provenance[field] = { source: from.source, method: from.methods[field] ?? field };
  };
  for (const field of SIMPLE_FIELDS) {
    const from = first(field);
    if (!from) continue;
    candidate[field] = from.values[field] ?? null;
    note(field, from);
  }
  const titled = pickTitle(found);
  if (titled) {
    candidate.title = titled.values.title ?? null;
    note("title", titled);
  }
  const priced = first("price");
  const price = priced?.values.price;
  if (priced && price) {
    const stated =
      [price.currency, priced.currency, ...found.map((f) => f.values.price?.currency ?? f.currency)]
        .map((c) => currencyCode(c))
        .find((c) => c !== null) ?? null;
    const currency = stated ?? fallbackCurrency;
    if (currency) {
      candidate.price = { amount: price.amount, currency };
      note("price", priced);
      if (!stated)
        candidate.provenance.price = {
          source: priced.source,
          method: `${priced.methods.price ?? "price"} (currency from the page's country)`,
        };
    } else {
      candidate.attributes["priceAmountWithoutCurrency"] = price.amount;
      candidate.provenance.attributes = {
        source: priced.source,
        method: priced.methods.price ?? "price",
      };
    }
  }
  const imaged = first("images");
  if (imaged) {
    const structured = found.filter((f) => f.source !== "heuristic" || f === imaged);
    candidate.images = [...new Set(structured.flatMap((f) => f.values.images ?? []))];
    note("images", imaged);
  }
  const varied = first("variants");
  if (varied) {
    candidate.variants = varied.values.variants ?? [];
    note("variants", varied);
  }
  return candidate;
}

/** A URL is never a product's name ("https://shop.example/p/1", "www.shop.example/p/1"). */
const URL_NAME = /^(https?:\/\/|www\.)\S+$|^\/\S*$/i;

/**
 * og:title usually carries the shop's name, the page's h1 does not: when the h1 is part of the
 * OpenGraph title, the h1 is the product name. It is too when og:title shares no word with the
 * h1 (a campaign's headline) or carries a price ("Buy X for only €89.99").
 */
function pickTitle(found: Found[]): Found | undefined {
  const winner = found.find((f) => f.values.title !== undefined && !URL_NAME.test(f.values.title));
  if (!winner || winner.source !== "opengraph") return winner;
  const og = (winner.values.title ?? "").toLowerCase();
  const h1 = found.find((f) => f.source === "heuristic" && f.values.title !== undefined);
  const text = h1?.values.title?.toLowerCase();
  if (!h1 || !text || text.length < 3) return winner;
  const words = wordSet(og);
  const shared = [...wordSet(text)].some((w) => words.has(w));
  return og.includes(text) || !shared || hasPrice(winner.values.title ?? "") ? h1 : winner;
}
