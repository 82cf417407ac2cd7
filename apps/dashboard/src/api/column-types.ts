// The column-mapping routes' shapes (issue 31), as the contract with the gateway states them:
// POST /api/imports/columns, /api/import-mappings, and the import view's `mapping`.

/** What a table column can be read as (the extract package's MAPPED_FIELDS). */
export type MappedField =
  | "title"
  | "sku"
  | "price"
  | "salePrice"
  | "regularPrice"
  | "currency"
  | "quantity"
  | "brand"
  | "gtin"
  | "mpn"
  | "images"
  | "description"
  | "availability"
  | "sourceUrl"
  | "parent"
  | "option"
  | "attribute"
  | "ignore";

export interface ColumnMappingEntry {
  column: string;
  field: MappedField;
  name?: string;
}

export interface ColumnMapping {
  columns: ColumnMappingEntry[];
}

export interface ColumnReading {
  column: string;
  samples: string[];
  field: MappedField;
  name: string | null;
  recognised: boolean;
}

interface Money {
  amount: string;
  currency: string;
}

/** A product as the columns preview reads it (the catalog's product fields, loosely). */
export interface PreviewProduct {
  title?: string | null;
  sku?: string | null;
  price?: Money | string | number | null;
  currency?: string | null;
  quantity?: number | null;
  brand?: string | null;
  gtin?: string | null;
  images?: string[];
  variants?: {
    sku?: string | null;
    price?: Money | string | number | null;
    options?: Record<string, string>;
    quantity?: number | null;
  }[];
  attributes?: Record<string, unknown>;
}

export type PreviewRow =
  { row: number; ok: true; product: PreviewProduct } | { row: number; ok: false; error: string };

export interface ColumnsPreview {
  format: "csv" | "xlsx" | "json" | "ndjson" | "xml";
  layout: string;
  mappable: boolean;
  template: { id: string; name: string } | null;
  columns: ColumnReading[];
  needsMapping: boolean;
  preview: PreviewRow[];
}

export interface ImportMappingTemplate {
  id: string;
  name: string;
  headers: string[];
  mapping: ColumnMapping;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
}

export interface ImportMappingBody {
  name: string;
  headers: string[];
  mapping: ColumnMapping;
}

/** How an import's columns were read, when not automatically. */
export interface ImportMappingUse {
  source: "given" | "template";
  templateId: string | null;
  templateName: string | null;
}
