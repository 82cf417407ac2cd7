// The column-mapping routes' shapes (issue 31), named for the dashboard from the gateway's
// schemas: POST /api/imports/columns, /api/import-mappings, and the import view's `mapping`.
import type {
  ColumnMapping,
  ColumnsPreview,
  Import,
  ImportMapping,
  SaveImportMappingBody,
} from "@catalog/gateway/api-types";

export type { ColumnMapping, ColumnsPreview };
export type ColumnMappingEntry = ColumnMapping["columns"][number];
/** What a table column can be read as (the extract package's MAPPED_FIELDS). */
export type MappedField = ColumnMappingEntry["field"];
/** One column of the file as the service reads it, with sample values. */
export type ColumnReading = ColumnsPreview["columns"][number];
export type PreviewRow = ColumnsPreview["preview"][number];
export type PreviewProduct = Extract<PreviewRow, { ok: true }>["product"];
export type ImportMappingTemplate = ImportMapping;
export type ImportMappingBody = SaveImportMappingBody;
/** How an import's columns were read, when not automatically. */
export type ImportMappingUse = NonNullable<Import["mapping"]>;
