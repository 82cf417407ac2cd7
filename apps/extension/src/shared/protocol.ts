// What the popup asks the service worker, and what it answers. The service worker makes every
// call to the service and reads the page; the popup only shows and edits. Each request type maps
// to its answer type, so both sides are checked against one table.
import type {
  ExtensionMe,
  ExtensionPreview,
  Import,
  ImportRow,
  IngestResult,
  List,
  ProductFields,
} from "./api";
import type { UserError } from "./user-error";

/** The pairing kept in the extension's local storage. */
export interface Pairing {
  serviceUrl: string;
  key: string;
  org: ExtensionMe["org"];
  keyName: string;
}

/** The page as the browser rendered it, after its scripts ran. */
export interface Capture {
  url: string;
  title: string;
  html: string;
}

/** Fields the user changed in the preview; only these are sent with a save. */
export type ProductEdits = Partial<
  Pick<
    ProductFields,
    "title" | "sku" | "price" | "availability" | "quantity" | "brand" | "images" | "description"
  >
>;

export interface Requests {
  pairing: { request: Record<string, never>; answer: Pairing | null };
  pair: { request: { serviceUrl: string; key: string }; answer: Pairing };
  unpair: { request: Record<string, never>; answer: null };
  preview: { request: { tabId: number }; answer: { capture: Capture; preview: ExtensionPreview } };
  save: { request: { capture: Capture; edits: ProductEdits }; answer: IngestResult };
  startImport: { request: { urls: string[] }; answer: Import };
  import: { request: { id: string }; answer: Import };
  importRows: { request: { id: string; page: number }; answer: List<ImportRow> };
  storeImport: { request: { id: string; skipRows: number[] }; answer: Import };
}

export type RequestType = keyof Requests;
export type Message<T extends RequestType = RequestType> = { type: T } & Requests[T]["request"];
export type Reply<T extends RequestType> =
  { ok: true; value: Requests[T]["answer"] } | { ok: false; error: UserError };
