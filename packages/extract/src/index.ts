export { emptyCandidate, type CandidateField, type FieldSource, type ProductCandidate } from "./product-candidate.js";
export { extractProduct } from "./html/index.js";
export { parsePrice, type ParsedPrice, type PriceHint } from "./price/index.js";
export {
  DocumentError, DocumentTooLargeError, EmptyDocumentError, MalformedDocumentError, UnsupportedDocumentError,
  parseDocument, type DocumentMeta, type DocumentRow,
} from "./documents/index.js";
