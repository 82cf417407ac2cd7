import { boundedText, type CheerioAPI, type ElementNode } from "./dom.js";
import { attrContains, matching } from "./page-index.js";
import { controlState } from "./buy-controls.js";
import { IN_STOCK, OUT_OF_STOCK } from "./stock-words.js";
import { cleanText } from "./text.js";

/**
 * Availability from what the shopper sees, when no markup states it: a stock line (an element
 * named for stock or availability whose text says so), a labelled value ("Availability: 3 pcs"),
 * else the product's buy button: enabled means it can be bought, one that says "sold out" or
 * "notify me" means it cannot. The button counted is the first after the product's title, so a
 * related product's button further down does not speak for this one.
 */
export function visibleAvailability(
  $: CheerioAPI,
  title: ElementNode | null,
  labelled: string | undefined,
): { value: string; method: string } | null {
  const line = stockLine($);
  if (line) return { value: line, method: "stock text" };
  const stated = labelled ? stockOfText(labelled) : null;
  if (stated) return { value: stated, method: "label availability" };
  return controlState($, title);
}

/**
 * InStock or OutOfStock from a stock line's words, or a count of pieces ("3 pcs", "> 10 Stück").
 */
function stockOfText(text: string): string | null {
  if (OUT_OF_STOCK.test(text)) return "OutOfStock";
  if (IN_STOCK.test(text)) return "InStock";
  const count =
    /^[>≥+~]?\s*(\d{1,6})\s*\+?\s*(pcs?|pieces?|items?|units?|stk|st[üu]ck|szt|ks|kpl|db|gab|tk|vnt|шт|個|件|点)?\.?$/iu.exec(
      text,
    );
  if (!count) return null;
  return Number(count[1]) > 0 ? "InStock" : "OutOfStock";
}

function stockLine($: CheerioAPI): string | null {
  // [id*=vailability], [class*=vailability], [id*=stock], [class*=stock], [class*=Stock]
  const named = matching(
    $,
    ["id", "class"],
    (el) =>
      attrContains(el, "id", "vailability") ||
      attrContains(el, "class", "vailability") ||
      attrContains(el, "id", "stock") ||
      attrContains(el, "class", "stock") ||
      attrContains(el, "class", "Stock"),
  );
  for (const el of named) {
    const text = cleanText(boundedText(el, 160));
    // An empty container named "out-of-stock" is a slot the page fills when it is: no evidence.
    if (!text) continue;
    const marker = `${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""}`;
    if (/(^|\s)(out-?of-?stock|sold-?out)(\s|$)/i.test(marker)) return "OutOfStock";
    if (/(^|\s)(in-?stock|instock)(\s|$)/i.test(marker)) return "InStock";
    const stated = stockOfText(text);
    if (stated) return stated;
  }
  return null;
}
