// Pages (HTML) to product candidates, and prices. Documents are `@catalog/extract/documents`, so
// that reading a page (the import worker, the extension's route) never loads the document readers.
export {
  emptyCandidate,
  type CandidateField,
  type FieldSource,
  type ProductCandidate,
} from "./product-candidate.js";
export {
  extractProduct,
  readPage,
  type Listing,
  type ListingItem,
  type PageReading,
} from "./html/index.js";
export { parsePrice, type ParsedPrice, type PriceHint } from "./price/index.js";
