// Import shapes shared by the one-shot import routes, the import resource and the extension's
// routes.
import { Type } from "typebox";

/** One listing import (POST /api/extension/imports) takes at most this many pages. */
export const MAX_EXTENSION_IMPORT_URLS = 50;

/** A JSON body of page URLs to import, 1 to `maxItems` of them. */
export const urlImportBodySchema = (maxItems: number) =>
  Type.Object(
    {
      urls: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
        minItems: 1,
        maxItems,
        description: `Product page URLs, 1 to ${maxItems}`,
      }),
    },
    { additionalProperties: false },
  );

/** JSON body of POST /api/extension/imports: the pages of a listing the user chose. */
export const ExtensionUrlImportBodySchema = urlImportBodySchema(MAX_EXTENSION_IMPORT_URLS);

/**
 * A document upload's multipart form, for the OpenAPI document: the handler reads the parts as a
 * stream, in this order, and checks them itself.
 */
export const DocumentPartsSchema = Type.Object({
  currency: Type.Optional(
    Type.String({
      description:
        "ISO-4217 code for prices the document gives without one; send this part before the file",
    }),
  ),
  encoding: Type.Optional(
    Type.String({
      description:
        'A CSV/TSV file\'s text encoding, e.g. "windows-1251", "shift_jis", "gb18030", "utf-8", used instead of detecting one (an unknown ' +
        "name is a 400); not used for XLSX, JSON, NDJSON and XML (an XML file is read per its BOM or declaration). Send this part before the file",
    }),
  ),
  mapping: Type.Optional(
    Type.String({
      maxLength: 32 * 1024,
      description:
        'How a CSV/TSV/XLSX file\'s columns are read: JSON { "columns": [{ "column": "Artikel", "field": "title" }, { "column": "Farbe", ' +
        '"field": "option", "name": "Color" }] } (at most 32 KB and 500 columns; fields: title, sku, price, salePrice, regularPrice, currency, ' +
        "quantity, brand, gtin, mpn, images, description, availability, sourceUrl, parent, option, attribute, ignore); columns it does not name " +
        "keep the automatic reading. Or \"automatic\": no saved template is applied. Left out: the organisation's template for the file's " +
        "header set, if any. Malformed JSON or an unknown field is a 400; a column the file lacks, two columns for one single-value field, no " +
        "title column, or a mapping for JSON/NDJSON is a 422. Send this part before the file",
    }),
  ),
  file: Type.Optional(
    Type.String({
      format: "binary",
      description:
        "Required: the document (CSV, TSV, XLSX, JSON, NDJSON, or XML: a Google Merchant Center RSS/Atom feed, a WordPress/WooCommerce export or a list of product elements; a DOCTYPE with entities or an external DTD is a 422), as the last part",
    }),
  ),
});

export const DroppedImagesSchema = Type.Array(
  Type.Object({
    url: Type.String(),
    reason: Type.String({
      description: 'e.g. "is a loopback address", "resolves to a private address (10.0.0.7)"',
    }),
  }),
  {
    description:
      "Image URLs left out of the product because they are not public web addresses (the same rules as for page URLs: " +
      "private, loopback, link-local and metadata addresses, literal or by DNS, and anything but http(s)). Present only when some were.",
  },
);

export const DocumentEncodingSchema = Type.Union(
  [
    Type.Object({
      name: Type.String({
        description:
          'The encoding the text was read in, e.g. "utf-8", "windows-1251", "shift_jis", "gb18030", "euc-kr"',
      }),
      source: Type.Enum(["named", "detected"], {
        description: 'named: the uploader\'s "encoding" part; detected: read from the bytes',
      }),
    }),
    Type.Null(),
  ],
  {
    description:
      "A CSV/TSV document's text encoding; null for XLSX, JSON, NDJSON and XML (XLSX is UTF-8 inside; JSON is read as UTF-8, " +
      "or UTF-16 by its BOM, per RFC 8259) and for URL imports",
  },
);
