import type { ProductVariant } from "@catalog/values";
import type { CheerioAPI } from "./dom.js";
import { newFound, setField, type Found } from "./found.js";
import { parseLenientJson } from "./lenient-json.js";
import { firstMatching, hasAttr, hasToken, tagged } from "./page-index.js";
import { readAmount } from "./read-amount.js";
import { cleanGtin } from "./schema-product.js";
import { firstText, isNode, nodes } from "./schema-node.js";
import { cleanCode, cleanText } from "./text.js";
import { largestFromSrcset, resolveUrl } from "./urls.js";

/**
 * WooCommerce's single-product template: `.product_title`, the price block (`p.price` with
 * `.woocommerce-Price-amount`, a sale price in <ins> and the old one in <del>), `.sku`, the
 * stock line, the gallery, and `form.variations_form[data-product_variations]`.
 */
export function wooCommerceProduct(
  $: CheerioAPI,
  base: string,
  currencyHint: string | null,
): Found | null {
  const titleEl = firstMatching($, ["class"], (el) => hasToken(el, "class", "product_title"));
  const form = tagged($, "form").find(
    (el) => hasToken(el, "class", "variations_form") && hasAttr(el, "data-product_variations"),
  );
  if (!titleEl && !form) return null;
  // Only a page with WooCommerce's title or variations form gets the slower selector queries.
  const amounts = $(
    "p.price .woocommerce-Price-amount, span.price .woocommerce-Price-amount, .summary .woocommerce-Price-amount",
  );
  if (!titleEl && amounts.length === 0) return null;
  const found = newFound("woocommerce", true);
  setField(found, "title", cleanText(titleEl ? $(titleEl).text() : ""), ".product_title");
  const current = amounts.filter((_, el) => $(el).closest("del").length === 0);
  const preferred = current.filter((_, el) => $(el).closest("ins").length > 0).first();
  const amountEl = preferred.length > 0 ? preferred : current.first();
  if (amountEl.length > 0) {
    const symbol = cleanText(amountEl.find(".woocommerce-Price-currencySymbol").text());
    const price = readAmount(cleanText(amountEl.text()), null, currencyHint ?? symbol);
    setField(found, "price", price, ".woocommerce-Price-amount");
  }
  setField(
    found,
    "sku",
    cleanCode($(".product_meta .sku, .sku_wrapper .sku").first().text()),
    ".sku",
  );
  const stock = $(".summary .stock, .product .stock").first();
  if (stock.hasClass("in-stock")) setField(found, "availability", "InStock", ".stock.in-stock");
  if (stock.hasClass("out-of-stock"))
    setField(found, "availability", "OutOfStock", ".stock.out-of-stock");
  if (stock.hasClass("available-on-backorder"))
    setField(found, "availability", "BackOrder", ".stock.available-on-backorder");
  const images: string[] = [];
  $(".woocommerce-product-gallery__image").each((_, el) => {
    const img = $(el).find("img").first();
    const href =
      img.attr("data-large_image") ??
      $(el).find("a").attr("href") ??
      largestFromSrcset(img.attr("srcset")) ??
      img.attr("src");
    const url = resolveUrl(href, base);
    if (url && !images.includes(url)) images.push(url);
  });
  setField(found, "images", images, ".woocommerce-product-gallery__image");
  setField(
    found,
    "description",
    cleanText($(".woocommerce-product-details__short-description").text()),
    "short description",
  );
  if (form) {
    const variants = readVariations(
      form.attribs["data-product_variations"] ?? "",
      base,
      currencyHint,
    );
    setField(found, "variants", variants, "data-product_variations");
  }
  return found;
}

function readVariations(json: string, base: string, currencyHint: string | null): ProductVariant[] {
  const parsed = parseLenientJson(json)[0];
  return nodes(Array.isArray(parsed) ? parsed : []).map((v) => {
    const price = readAmount(firstText(v["display_price"]), currencyHint);
    const options: Record<string, string> = {};
    if (isNode(v["attributes"])) {
      for (const [key, value] of Object.entries(v["attributes"])) {
        const text = cleanText(value);
        if (text) options[key.replace(/^attribute_(pa_)?/, "")] = text;
      }
    }
    const image = isNode(v["image"])
      ? (firstText(v["image"]["full_src"]) ?? firstText(v["image"]["src"]))
      : null;
    const inStock = v["is_in_stock"];
    return {
      sku: cleanCode(firstText(v["sku"])),
      title: null,
      price: price?.currency ? { amount: price.amount, currency: price.currency } : null,
      options,
      gtin: cleanGtin(firstText(v["global_unique_id"] ?? v["gtin"])),
      availability: typeof inStock === "boolean" ? (inStock ? "InStock" : "OutOfStock") : null,
      image: resolveUrl(image, base),
    };
  });
}
