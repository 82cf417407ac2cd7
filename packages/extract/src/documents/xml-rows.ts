import { googleItemRecord, googleXmlMapper, isGoogleItem } from "./google-xml-items.js";
import type { DocumentRow, TableMapper } from "./document-row.js";
import { jsonProductRow } from "./json-product.js";
import { wxrReader } from "./wxr-items.js";
import { xmlItems, type XmlKind } from "./xml-items.js";
import { xmlObject } from "./xml-values.js";

/**
 * Products of an XML document, item by item: a WordPress (WooCommerce) export, a Google
 * Merchant Center feed (RSS 2.0 or Atom 1.0), or a plain list (`<products><product>`), whose
 * items are read with the same key recognition as JSON objects. Rows are numbered by item
 * ("item 3"), as in JSON.
 */
export async function* xmlRows(
  text: AsyncIterable<string>,
  defaultCurrency: string | null,
): AsyncGenerator<DocumentRow> {
  let kind: XmlKind = "generic";
  let google: TableMapper | null = null;
  const wxr = wxrReader(defaultCurrency);
  for await (const event of xmlItems(text)) {
    if ("kind" in event) {
      kind = event.kind;
      continue;
    }
    const { n, item } = event;
    if (kind === "wxr") yield* relabel(wxr.push(item, n), false);
    else if ((kind === "rss" || kind === "atom") && isGoogleItem(item)) {
      google ??= googleXmlMapper(defaultCurrency);
      yield* relabel(google.push(googleItemRecord(item, n)));
    } else yield jsonProductRow(xmlObject(item), n, `item ${n}`, defaultCurrency);
  }
  if (kind === "wxr") yield* relabel(wxr.end(), false);
  if (google) yield* relabel(google.end());
}

/**
 * The table mappers say "row 3" and "column price"; an XML document's rows are its items, and a
 * Google feed's columns its elements.
 */
function relabel(rows: DocumentRow[], elements = true): DocumentRow[] {
  return rows.map((r) => {
    if (r.ok) return r;
    const error = r.error.replace(/^row (\d+)/, "item $1");
    return { ...r, error: elements ? error.replace(/\bcolumn /g, "element ") : error };
  });
}
