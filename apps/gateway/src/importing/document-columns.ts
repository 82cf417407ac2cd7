import {
  findImportMappingFor,
  markImportMappingUsed,
  type Db,
  type ImportMappingUse,
} from "@catalog/db";
import type { ColumnMapping, DocumentMeta, MappedField } from "@catalog/extract/upload-checks";
import type { Semaphore } from "@catalog/fetch/semaphore";
import type { MappingChoice } from "./mapping-part.js";
import { columnsInThread, type ColumnsRead } from "./parse-thread.js";

/** The columns preview's sample rows (the contract with the dashboard). */
export const SAMPLE_ROWS = 20;
const SAMPLES = 5;
const SAMPLE_CHARS = 80;

export interface ResolvedMapping {
  mapping: ColumnMapping | undefined;
  use: ImportMappingUse | null;
  /** The template these headers match, whether applied or not. */
  template: { id: string; name: string } | null;
}

export interface SpooledDocument {
  path: string;
  tmpDir: string;
  meta: DocumentMeta;
}

/** The parser thread's heap and the document slots (DocumentLimits'). */
interface Limits {
  parseHeapMb: number;
  slots: Semaphore;
}

function readColumns(
  doc: SpooledDocument,
  mapping: ColumnMapping | undefined,
  sampleRows: number,
  limits: Limits,
  signal: AbortSignal,
): Promise<ColumnsRead> {
  const meta = { ...doc.meta, ...(mapping ? { mapping } : {}) };
  return limits.slots.run(() =>
    columnsInThread(
      { path: doc.path, tmpDir: doc.tmpDir, meta, batchRows: 1, batchChars: 1 },
      sampleRows,
      {
        heapMb: limits.parseHeapMb,
        signal,
      },
    ),
  );
}

/**
 * The mapping an upload is read with: the one sent with it, none ("automatic"), or the org's
 * template for the file's header set (then its `lastUsedAt` is set when `markUsed`).
 */
export async function resolveMapping(
  db: Db,
  orgId: string,
  doc: SpooledDocument,
  choice: MappingChoice,
  limits: Limits,
  signal: AbortSignal,
  markUsed: boolean,
): Promise<ResolvedMapping> {
  if (choice.kind === "given")
    return {
      mapping: choice.mapping,
      use: { source: "given", templateId: null, templateName: null },
      template: null,
    };
  if (choice.kind === "automatic") return { mapping: undefined, use: null, template: null };
  const head = await readColumns(doc, undefined, 0, limits, signal);
  if (head.headers.length === 0) return { mapping: undefined, use: null, template: null };
  const found = await findImportMappingFor(db, orgId, head.headers);
  if (!found) return { mapping: undefined, use: null, template: null };
  if (markUsed) await markImportMappingUsed(db, orgId, found.id);
  return {
    mapping: { columns: found.mapping.columns as ColumnMapping["columns"] },
    use: { source: "template", templateId: found.id, templateName: found.name },
    template: { id: found.id, name: found.name },
  };
}

/** A row of the columns preview: a product as the catalog reads it, or why the row is not one. */
interface Money {
  amount: string;
  currency: string;
}

/** A product as the columns preview shows it (the catalog's product fields it reads). */
export interface PreviewProduct {
  title: string;
  sku: string | null;
  price: Money | null;
  currency: string | null;
  quantity: number | null;
  brand: string | null;
  gtin: string | null;
  images: string[];
  variants: {
    sku: string | null;
    price: Money | null;
    options: Record<string, string>;
    quantity: number | null;
  }[];
  attributes: Record<string, unknown>;
}

export type PreviewRow =
  { row: number; ok: true; product: PreviewProduct } | { row: number; ok: false; error: string };

export interface ColumnsAnswer {
  format: ColumnsRead["format"];
  layout: string;
  mappable: boolean;
  template: { id: string; name: string } | null;
  columns: {
    column: string;
    samples: string[];
    field: MappedField;
    name: string | null;
    recognised: boolean;
  }[];
  needsMapping: boolean;
  preview: PreviewRow[];
}

/**
 * POST /api/imports/columns: the file's columns with samples and how each is read (the mapping
 * sent, else the org template for these headers, else automatically) and its first rows as
 * products. Nothing is stored.
 */
export async function documentColumns(
  db: Db,
  orgId: string,
  doc: SpooledDocument,
  choice: MappingChoice,
  limits: Limits,
  signal: AbortSignal,
): Promise<ColumnsAnswer> {
  let read = await readColumns(
    doc,
    choice.kind === "given" ? choice.mapping : undefined,
    SAMPLE_ROWS,
    limits,
    signal,
  );
  const mappable = read.format === "csv" || read.format === "xlsx";
  let template: ColumnsAnswer["template"] = null;
  if (mappable && choice.kind !== "automatic") {
    const found = await findImportMappingFor(db, orgId, read.headers);
    if (found) {
      template = { id: found.id, name: found.name };
      if (choice.kind === "template")
        read = await readColumns(
          doc,
          { columns: found.mapping.columns as ColumnMapping["columns"] },
          SAMPLE_ROWS,
          limits,
          signal,
        );
    }
  }
  return {
    format: read.format,
    layout: read.layout,
    mappable,
    template,
    columns: mappable
      ? read.assignments.map((a) => ({
          column: a.header,
          samples: samplesOf(read.rows, a.index),
          field: a.field,
          name: a.name,
          recognised: read.recognised[a.index] ?? false,
        }))
      : [],
    needsMapping: read.needsMapping,
    preview: read.preview.map((entry) =>
      "item" in entry
        ? { row: entry.row, ok: true, product: previewProduct(entry.item.fields) }
        : { row: entry.row, ok: false, error: entry.error },
    ),
  };
}

function samplesOf(rows: ColumnsRead["rows"], index: number): string[] {
  const samples: string[] = [];
  for (const { cells } of rows) {
    const cell = cells[index]?.trim();
    if (!cell) continue;
    samples.push(cell.length > SAMPLE_CHARS ? `${cell.slice(0, SAMPLE_CHARS - 1)}…` : cell);
    if (samples.length >= SAMPLES) break;
  }
  return samples;
}

interface Fields {
  title: string;
  sku?: string | null | undefined;
  price?: { amount: string; currency: string } | null | undefined;
  quantity?: number | null | undefined;
  brand?: string | null | undefined;
  gtin?: string | null | undefined;
  images?: string[] | undefined;
  variants?:
    | {
        sku: string | null;
        price: { amount: string; currency: string } | null;
        options: Record<string, string>;
        quantity?: number | null | undefined;
      }[]
    | undefined;
  attributes?: Record<string, unknown> | undefined;
}

function previewProduct(fields: Fields): PreviewProduct {
  return {
    title: fields.title,
    sku: fields.sku ?? null,
    price: fields.price ?? null,
    currency: fields.price?.currency ?? null,
    quantity: fields.quantity ?? null,
    brand: fields.brand ?? null,
    gtin: fields.gtin ?? null,
    images: fields.images ?? [],
    variants: (fields.variants ?? []).map((v) => ({
      sku: v.sku,
      price: v.price,
      options: v.options,
      quantity: v.quantity ?? null,
    })),
    attributes: fields.attributes ?? {},
  };
}
