import { createHash } from "node:crypto";

/**
 * The shop a corpus page comes from: its host's name without "www." and without the country or
 * generic ending, so amazon.de and amazon.co.uk are one shop. Pages without a URL are one
 * "shop" per corpus source.
 */
export function shopOf(url: string | null, source: string): string {
  if (!url) return `(no url: ${source})`;
  const labels = new URL(url).hostname.replace(/^www\./, "").split(".");
  labels.pop();
  if (labels.length > 1 && /^(co|com|org|net|ac|gov|edu|ne|or)$/.test(labels.at(-1)!)) labels.pop();
  return labels.at(-1) ?? url;
}

/**
 * Splits shops into two halves of about the same number of pages: the largest shop first, each
 * to the half with fewer pages so far, ties in order of a hash of the names. The same on every
 * run, and blind to which shop a rule was written for.
 */
export function splitShops(pagesPerShop: Map<string, number>): [Set<string>, Set<string>] {
  const halves: [Set<string>, Set<string>] = [new Set(), new Set()];
  const sizes: [number, number] = [0, 0];
  const hash = (shop: string) => createHash("sha256").update(shop).digest("hex");
  const dealt = [...pagesPerShop.keys()].sort(
    (a, b) => pagesPerShop.get(b)! - pagesPerShop.get(a)! || hash(a).localeCompare(hash(b)),
  );
  for (const shop of dealt) {
    const half = sizes[0] <= sizes[1] ? 0 : 1;
    halves[half].add(shop);
    sizes[half] += pagesPerShop.get(shop)!;
  }
  return halves;
}
