// Importing: what the routes call to bring products in from page URLs, uploaded documents and
// the browser extension. Route folders import this file only; nothing here imports a route.
// The parser thread's module (parse-worker.ts, through parse-worker-entry.mjs) is found next to
// parse-thread.ts, in src/ and in the built dist/ alike.
export { NO_TITLE, toImportItem } from "./candidate.js";
export { importDocument, type DocumentLimits } from "./document-import.js";
export { documentCurrencyPart, documentEncodingPart } from "./document-parts.js";
export {
  SAMPLE_ROWS,
  documentColumns,
  resolveMapping,
  type ColumnsAnswer,
  type SpooledDocument,
} from "./document-columns.js";
export {
  MAX_MAPPING_BYTES,
  MAX_MAPPING_COLUMNS,
  checkMapping,
  documentMappingPart,
  type MappingChoice,
} from "./mapping-part.js";
export type { DocumentPreviewLimits } from "./document-preview.js";
export {
  createImageScreen,
  refusedImages,
  type DroppedImage,
  type ImageScreen,
  type RefusedImage,
} from "./image-screen.js";
export { ImportTasks } from "./import-tasks.js";
export { closeParseThreads } from "./parse-threads.js";
export { fitPageRead, storableMoney, storableUrl } from "./page-read-bounds.js";
export {
  NOT_A_PRODUCT_PAGE,
  listingPreview,
  productPreview,
  robotCheckMessage,
  withExtensionFields,
} from "./page-preview.js";
export { previewEntries, type PreviewEntry } from "./preview-rows.js";
export { removeStaleSpools, spoolUpload } from "./spool.js";
export {
  MAX_ACTIVE_IMPORTS_PER_ORG,
  checkImportCapacity,
  startDocumentImport,
  startUrlImport,
  type ImportStarter,
  type StartImportDeps,
} from "./start-import.js";
export { discardImportPreview, startStoreImport, type StoreImportDeps } from "./store-import.js";
export { abortWhenClientGoes, documentFilePart, textPart } from "./upload-part.js";
export { importUrls, type UrlImportRequest } from "./url-import.js";
