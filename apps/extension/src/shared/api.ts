// The service's answers the extension reads, typed from the gateway's own schemas (type-only:
// no gateway code reaches the bundle), so a changed shape breaks this package's type check.
export type {
  ExtensionMe,
  ExtensionPreview,
  Import,
  ImportRow,
  IngestResult,
  List,
  ListingItem,
  Money,
  ProductFields,
} from "@catalog/gateway/api-types";
