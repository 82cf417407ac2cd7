import { Type } from "typebox";
import { ProductSchema } from "../products/schemas.js";

export const MAX_URLS = 50;

export const ImportUrlsBodySchema = Type.Object(
  {
    urls: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), { minItems: 1, maxItems: MAX_URLS }),
    persist: Type.Boolean({ default: false, description: "true stores the products; false (the default) only previews them" }),
  },
  { additionalProperties: false },
);

/** A document upload's multipart form, for the OpenAPI document: the handler reads the parts as a stream, in this order, and checks them itself. */
export const DocumentPartsSchema = Type.Object({
  currency: Type.Optional(Type.String({ description: "ISO-4217 code for prices the document gives without one; send this part before the file" })),
  encoding: Type.Optional(Type.String({
    description: 'A CSV/TSV file\'s text encoding, e.g. "windows-1251", "shift_jis", "gb18030", "utf-8", used instead of detecting one (an unknown ' +
      "name is a 400); not used for XLSX, JSON and NDJSON. Send this part before the file",
  })),
  file: Type.Optional(Type.String({ format: "binary", description: "Required: the document (CSV, TSV, XLSX, JSON or NDJSON), as the last part" })),
});

/** POST /api/import/document's form: the upload's parts and, first, whether to store. */
export const DocumentImportPartsSchema = Type.Object({
  persist: Type.Optional(Type.Enum(["true", "false"], { description: '"true" stores the products; "false" (the default) only previews them. Send this part first' })),
  ...DocumentPartsSchema.properties,
});

const Changes = Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }));

export const DroppedImagesSchema = Type.Array(
  Type.Object({ url: Type.String(), reason: Type.String({ description: 'e.g. "is a loopback address", "resolves to a private address (10.0.0.7)"' }) }),
  {
    description: "Image URLs left out of the product because they are not public web addresses (the same rules as for page URLs: " +
      "private, loopback, link-local and metadata addresses, literal or by DNS, and anything but http(s)). Present only when some were.",
  },
);

const ImportedItem = Type.Object({
  ok: Type.Literal(true),
  action: Type.Enum(["preview", "created", "updated"]),
  wouldBe: Type.Optional(Type.Enum(["created", "updated"], { description: "In a preview: what persisting would do" })),
  existingId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  changes: Changes,
  product: ProductSchema,
  droppedImages: Type.Optional(DroppedImagesSchema),
});

const FailedItem = Type.Object({ ok: Type.Literal(false), error: Type.String() });

export const SummarySchema = Type.Object({
  requested: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  created: Type.Integer({ description: "In a preview: how many would be created" }),
  updated: Type.Integer({ description: "In a preview: how many would be updated" }),
});

export const UrlImportResultSchema = Type.Object({
  persisted: Type.Boolean(),
  items: Type.Array(Type.Union([
    Type.Object({ url: Type.String(), ...ImportedItem.properties }),
    Type.Object({ url: Type.String(), ...FailedItem.properties }),
  ])),
  summary: SummarySchema,
});

export const DocumentEncodingSchema = Type.Union([
  Type.Object({
    name: Type.String({ description: 'The encoding the text was read in, e.g. "utf-8", "windows-1251", "shift_jis", "gb18030", "euc-kr"' }),
    source: Type.Enum(["named", "detected"], { description: 'named: the uploader\'s "encoding" part; detected: read from the bytes' }),
  }),
  Type.Null(),
], {
  description: "A CSV/TSV document's text encoding; null for XLSX, JSON and NDJSON (XLSX is UTF-8 inside; JSON is read as UTF-8, " +
    "or UTF-16 by its BOM, per RFC 8259) and for URL imports",
});

export const DocumentImportResultSchema = Type.Object({
  persisted: Type.Boolean(),
  items: Type.Array(Type.Union([
    Type.Object({ row: Type.Integer({ description: "Row (or item) number in the document; the header is row 1" }), ...ImportedItem.properties }),
    Type.Object({ row: Type.Integer(), ...FailedItem.properties }),
  ])),
  summary: SummarySchema,
  encoding: DocumentEncodingSchema,
});
