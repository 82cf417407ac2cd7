export { emptyCandidate, type CandidateField, type FieldSource, type ProductCandidate } from "./product-candidate.js";
export { extractProduct, readPage, type Listing, type ListingItem, type PageReading } from "./html/index.js";
export { parsePrice, type ParsedPrice, type PriceHint } from "./price/index.js";
export {
  DOCUMENT_LIMITS, DocumentError, DocumentLimitError, DocumentTooLargeError, EmptyDocumentError, MalformedDocumentError,
  UnsupportedDocumentError, parseDocument, parseDocumentFile, type DocumentLimitName, type DocumentMeta, type DocumentRow,
} from "./documents/index.js";
