const ID_PARAMS = ["sku", "pid", "productid", "product_id", "itemid", "item_id", "articleid", "id"];
// Amazon-style "/dp/B0756B4GVG" and "/gp/product/B0756B4GVG".
const ASIN_PATH = /\/(?:dp|gp\/product|gp\/aw\/d)\/([A-Z0-9]{10})(?:[/?]|$)/;
// A last path segment that is an id: "302474151804", "M67296549".
const WHOLE_ID = /^[A-Z]{0,2}\d{5,}$/;
// An id ending a slug: "leather-look-shirt-15213589", "Casio-Calculator_36029524".
const TRAILING_ID = /[-_](\d{6,})$/;

/**
 * The product id a shop put in the page's URL, as a last resort for the SKU: most shops name
 * the product page by its id. Short numbers are left alone (they are as likely a page number).
 */
export function productIdFromUrl(...urls: (string | null | undefined)[]): string | null {
  for (const raw of urls) {
    if (!raw) continue;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    const asin = ASIN_PATH.exec(url.pathname);
    if (asin?.[1]) return asin[1];
    for (const [key, value] of url.searchParams) {
      if (
        ID_PARAMS.includes(key.toLowerCase()) &&
        /^[A-Za-z0-9-]{4,30}$/.test(value) &&
        /\d/.test(value)
      )
        return value;
    }
    const segments = url.pathname.split("/").filter(Boolean);
    const last = decodeURIComponent(segments[segments.length - 1] ?? "").replace(
      /\.(html?|aspx?|php|jsp)$/i,
      "",
    );
    if (WHOLE_ID.test(last)) return last;
    const trailing = TRAILING_ID.exec(last);
    if (trailing?.[1]) return trailing[1];
  }
  return null;
}
