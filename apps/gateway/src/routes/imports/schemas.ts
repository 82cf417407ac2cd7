import { Type } from "typebox";
import { PageQuerySchema } from "../../schemas/common.js";
import {
  DocumentEncodingSchema,
  DroppedImagesSchema,
  urlImportBodySchema,
} from "../../schemas/import.js";
import { ProductFieldsSchema } from "../../schemas/product.js";
import { WatchSchedule } from "../../schemas/watch.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: "date-time" });
const Count = Type.Integer({ minimum: 0 });

export const MAX_IMPORT_URLS = 500;

export const IMPORT_STATUSES = [
  "previewing",
  "ready",
  "storing",
  "stored",
  "failed",
  "discarded",
] as const;
export const ROW_OUTCOMES = ["create", "update", "unchanged", "error"] as const;

/**
 * JSON body of POST /api/imports; a document is sent as multipart instead (part `file`, optional
 * text part `currency`).
 */
export const CreateUrlImportBodySchema = Type.Object(
  {
    ...urlImportBodySchema(MAX_IMPORT_URLS).properties,
    watch: Type.Optional(
      Type.Union([WatchSchedule, Type.Null()], {
        description:
          "Watch these pages: the products this import stores are re-checked on this schedule (source watch); null or absent: not watched",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportCountsSchema = Type.Object(
  {
    create: Count,
    update: Count,
    unchanged: Count,
    error: Count,
    skipped: Type.Integer({ minimum: 0, description: "Rows the user left out when storing" }),
    noCurrency: Type.Integer({
      minimum: 0,
      description:
        "Rows that give a price without a currency (Shopify and WooCommerce exports never state one, and no currency " +
        "was chosen): they are stored without a price. Start the import again with `currency` to keep the prices.",
    }),
  },
  { description: "Rows per preview outcome, so far" },
);

export const ImportSchema = Type.Object({
  id: Type.String(),
  kind: Type.Enum(["urls", "document"]),
  name: Type.String({
    description:
      'The document\'s file name; for page addresses, the one page\'s host and path ("shop.example/products/blue-mug") or "12 pages from shop.example" ("12 pages from 3 sites")',
  }),
  status: Type.Enum([...IMPORT_STATUSES], {
    description:
      "previewing (rows being read) -> ready (preview complete; nothing stored yet) -> storing -> stored; " +
      "failed (error says why; nothing was stored); discarded (the user dropped the preview)",
  }),
  error: Nullable(Type.String()),
  currency: Nullable(
    Type.String({ description: "Used for prices the document gives without one" }),
  ),
  encoding: DocumentEncodingSchema,
  watch: Type.Union([WatchSchedule, Type.Null()], {
    description:
      "URL imports: the products it stores are watched on this schedule (source watch); null: not watched",
  }),
  mapping: Nullable(
    Type.Object(
      {
        source: Type.Enum(["given", "template"], {
          description: "given: a mapping sent with the upload; template: the organisation's",
        }),
        templateId: Nullable(Type.String()),
        templateName: Nullable(Type.String()),
      },
      {
        description:
          "How a document's columns were read, when not automatically (null: the automatic reading)",
      },
    ),
  ),
  progress: Type.Object({
    done: Count,
    total: Nullable(Count),
    etaSeconds: Nullable(
      Type.Number({
        description: "Estimated seconds left in the current phase (previewing or storing)",
      }),
    ),
  }),
  counts: ImportCountsSchema,
  result: Nullable(
    Type.Object(
      { created: Count, updated: Count, unchanged: Count, skipped: Count },
      { description: "Set once stored" },
    ),
  ),
  createdAt: Time,
  updatedAt: Time,
  expiresAt: Time,
  rowsRemovedAt: Nullable(
    Type.String({
      format: "date-time",
      description:
        "When retention removed this finished import's rows (IMPORT_ROWS_RETENTION_DAYS after it ended); its counts and result stay, and its rows answer 410",
    }),
  ),
});

export const ImportRowSchema = Type.Object({
  row: Type.Integer({
    description:
      "The row number in the document (the header is row 1), or the URL's position (from 1); rows are listed in this order",
  }),
  url: Nullable(Type.String()),
  outcome: Type.Enum([...ROW_OUTCOMES]),
  error: Nullable(Type.String()),
  match: Nullable(
    Type.Object(
      {
        productId: Type.String(),
        title: Type.String(),
        sku: Nullable(Type.String()),
        by: Type.Enum(["sku", "sourceUrl"]),
      },
      { description: "The catalog product this row updates" },
    ),
  ),
  changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }), {
    description: "Field-level diff against the matched product (every field for a new one)",
  }),
  product: Nullable(ProductFieldsSchema),
  droppedImages: Type.Optional(DroppedImagesSchema),
  warnings: Type.Array(Type.String(), {
    description:
      "What storing this row keeps from its source only in part, e.g. a price without a currency, or image paths on the shop's own server (not web addresses) left out",
  }),
  skipped: Type.Boolean(),
  stored: Nullable(Type.Enum(["created", "updated", "unchanged"])),
  storedProductId: Nullable(Type.String()),
});

export const ImportRowsQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    outcome: Type.Optional(Type.Enum([...ROW_OUTCOMES])),
  },
  { additionalProperties: false },
);

export const StoreImportBodySchema = Type.Object(
  {
    skipRows: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), {
        maxItems: 100_000,
        description: "Row numbers to leave out",
      }),
    ),
  },
  { additionalProperties: false },
);
