/**
 * A URL import's name, from its addresses, as a merchant would tell imports apart: one page is
 * its host and path ("shop.example/products/blue-mug"), several are counted by site ("3 pages
 * from shop.example", "12 pages from 4 sites").
 */
export function urlImportName(urls: string[]): string {
  const parsed = urls.map((u) => {
    try {
      return new URL(u);
    } catch {
      return null;
    }
  });
  const hosts = new Set(parsed.map((u) => u?.hostname ?? "").filter(Boolean));
  if (urls.length === 1) {
    const url = parsed[0];
    const text = url ? `${url.hostname}${url.pathname === "/" ? "" : url.pathname}` : urls[0]!;
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  }
  const pages = `${urls.length} pages`;
  if (hosts.size === 1) return `${pages} from ${[...hosts][0]!}`;
  return hosts.size > 1 ? `${pages} from ${hosts.size} sites` : pages;
}
