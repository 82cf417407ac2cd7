import type { ProductVariant } from "@catalog/values";
import type { CheerioAPI } from "./dom.js";
import { newFound, setField, type Found, type PriceValue } from "./found.js";
import { objectLiteralAt, parseLenientJson } from "./lenient-json.js";
import { hasAttr, tagged } from "./page-index.js";
import { currencyCode } from "./read-amount.js";
import { cleanGtin } from "./schema-product.js";
import { all, firstText, isNode, nodes, type SchemaNode } from "./schema-node.js";
import { cleanCode, cleanText } from "./text.js";
import { resolveUrl } from "./urls.js";

/**
 * Shopify themes print the product as JSON: `<script type="application/json"
 * data-product-json>` / `#ProductJson-*` ({{ product | json }}: prices in cents), and the
 * analytics snippet `var meta = {"product": ...}` (ShopifyAnalytics.meta; cents too).
 */
export function shopifyProduct($: CheerioAPI, pageUrl: string, base: string): Found | null {
  let product: SchemaNode | null = null;
  const method = "data-product-json";
  const allScripts = tagged($, "script");
  // script[data-product-json], script[id^='ProductJson'], script[data-product-json-full]
  const productJson = allScripts.filter(
    (el) =>
      hasAttr(el, "data-product-json") ||
      (el.attribs["id"]?.startsWith("ProductJson") ?? false) ||
      hasAttr(el, "data-product-json-full"),
  );
  for (const el of productJson) {
    const parsed = parseLenientJson($(el).text()).find(isNode);
    const inner = parsed && isNode(parsed["product"]) ? parsed["product"] : parsed;
    if (inner && (inner["variants"] || inner["title"])) {
      product = inner;
      break;
    }
  }
  const scripts = allScripts
    .filter((el) => !hasAttr(el, "src"))
    .map((el) => $(el).text())
    .filter((t) => t.includes("Shopify"));
  const analytics = analyticsProduct(scripts);
  const currency = shopCurrency(scripts);
  if (!product && !analytics) return null;
  const found = newFound("shopify", true);
  found.currency = currency;
  const source: SchemaNode = product ?? analytics ?? {};
  const at = (path: string): string =>
    `${product ? method : "ShopifyAnalytics.meta.product"}.${path}`;
  const variants = nodes(source["variants"]);
  const selected =
    selectedVariant(variants, pageUrl) ??
    variants.find((v) => v["available"] !== false) ??
    variants[0];
  setField(found, "title", cleanText(firstText(source["title"])), at("title"));
  setField(found, "brand", cleanText(firstText(source["vendor"])), at("vendor"));
  setField(found, "description", cleanText(firstText(source["description"])), at("description"));
  if (selected) {
    setField(found, "sku", cleanCode(firstText(selected["sku"])), at("variants.sku"));
    setField(found, "gtin", cleanGtin(firstText(selected["barcode"])), at("variants.barcode"));
    setField(found, "price", shopifyPrice(selected["price"], currency), at("variants.price"));
    if (typeof selected["available"] === "boolean") {
      setField(
        found,
        "availability",
        selected["available"] ? "InStock" : "OutOfStock",
        at("variants.available"),
      );
    }
  }
  setField(
    found,
    "price",
    shopifyPrice(source["price"] ?? source["price_min"], currency),
    at("price"),
  );
  const images = [...all(source["images"]), source["featured_image"]]
    .map((img) =>
      resolveUrl(typeof img === "string" ? img : isNode(img) ? firstText(img["src"]) : null, base),
    )
    .filter((url): url is string => url !== null);
  setField(found, "images", [...new Set(images)], at("images"));
  if (variants.length > 1)
    setField(
      found,
      "variants",
      variants.map((v) => variantOf(v, source, currency, base)),
      at("variants"),
    );
  if (analytics && product) {
    setField(
      found,
      "brand",
      cleanText(firstText(analytics["vendor"])),
      "ShopifyAnalytics.meta.product.vendor",
    );
  }
  return found;
}

function analyticsProduct(scripts: string[]): SchemaNode | null {
  for (const text of scripts) {
    for (const marker of ["var meta =", "ShopifyAnalytics.meta ="]) {
      const at = text.indexOf(marker);
      if (at < 0) continue;
      const literal = objectLiteralAt(text, at);
      const meta = literal ? parseLenientJson(literal).find(isNode) : undefined;
      if (meta && isNode(meta["product"])) return meta["product"];
    }
  }
  return null;
}

function shopCurrency(scripts: string[]): string | null {
  for (const text of scripts) {
    const match =
      /Shopify\.currency\s*=\s*\{[^}]*"active"\s*:\s*"([A-Z]{3})"/.exec(text) ??
      /ShopifyAnalytics\.meta\.currency\s*=\s*['"]([A-Z]{3})['"]/.exec(text) ??
      /"currencyCode"\s*:\s*"([A-Z]{3})"/.exec(text);
    if (match?.[1]) return match[1];
  }
  return null;
}

function selectedVariant(variants: SchemaNode[], pageUrl: string): SchemaNode | undefined {
  let id: string | null = null;
  try {
    id = new URL(pageUrl).searchParams.get("variant");
  } catch {
    return undefined;
  }
  return id ? variants.find((v) => String(v["id"]) === id) : undefined;
}

/** Liquid's `| json` gives cents as integers; Shopify's REST JSON gives "29.99" strings. */
function shopifyPrice(value: unknown, currency: string | null): PriceValue | null {
  let amount: string | null = null;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) {
    const cents = String(value).padStart(3, "0");
    amount = `${cents.slice(0, -2)}.${cents.slice(-2)}`;
  } else if (typeof value === "string" && /^\d+\.\d+$/.test(value.trim()) && Number(value) > 0) {
    const [whole = "0", fraction = ""] = value.trim().split(".");
    amount = `${whole}.${fraction.padEnd(2, "0")}`;
  }
  return amount ? { amount, currency: currencyCode(currency) } : null;
}

function variantOf(
  v: SchemaNode,
  product: SchemaNode,
  currency: string | null,
  base: string,
): ProductVariant {
  const price = shopifyPrice(v["price"], currency);
  const options: Record<string, string> = {};
  const names = all(product["options"]).map((o) =>
    typeof o === "string" ? o : isNode(o) ? firstText(o["name"]) : null,
  );
  ["option1", "option2", "option3"].forEach((key, i) => {
    const value = cleanText(firstText(v[key]));
    if (value) options[names[i] ?? key] = value;
  });
  const image = isNode(v["featured_image"]) ? firstText(v["featured_image"]["src"]) : null;
  return {
    sku: cleanCode(firstText(v["sku"])),
    title: cleanText(firstText(v["title"] ?? v["public_title"] ?? v["name"])),
    price: price?.currency ? { amount: price.amount, currency: price.currency } : null,
    options,
    gtin: cleanGtin(firstText(v["barcode"])),
    availability:
      typeof v["available"] === "boolean" ? (v["available"] ? "InStock" : "OutOfStock") : null,
    image: resolveUrl(image, base),
  };
}
