// What the gateway checks of an upload before a parser thread reads it: the limits it states,
// the encoding names it accepts and the currencies it refuses. `@catalog/extract/upload-checks`,
// so the gateway's main thread loads none of the readers (ZIP, XML, JSON streams).
export { DOCUMENT_LIMITS, type DocumentLimitName } from "./document-limits.js";
export { encodingName, type EncodingChoice } from "./text-encoding.js";
export { RETIRED_CURRENCIES } from "../price/currency-symbols.js";
export type { DocumentMeta } from "./document-row.js";
export {
  MAPPED_FIELDS,
  type ColumnMapping,
  type ColumnMappingEntry,
  type MappedField,
} from "./column-mapping.js";
