// The service's answers the extension reads, typed from the gateway's own schemas (type-only:
// no gateway code reaches the bundle), so a changed shape breaks this package's type check.
export type { Import, ImportRow, List, ProductFields } from "@catalog/gateway/api-types";
import type { ProductFields } from "@catalog/gateway/api-types";

// TODO(issue 14 merge): these three come from the gateway's api-types once its extension routes land.
export interface ExtensionMe { org: { id: string; name: string }; key: { id: string; name: string; prefix: string } }
export interface Money { amount: string; currency: string }
export interface Match { productId: string; title: string; sku: string | null; by: "sku" | "sourceUrl" }
export interface ListingItem { url: string; title: string | null; price: Money | null; image: string | null; inCatalog: { productId: string; title: string } | null }
export type ExtensionPreview =
  | {
    action: "preview"; page: "product"; wouldBe: "created" | "updated" | "unchanged"; match: Match | null;
    changes: Record<string, { from: unknown; to: unknown }>; product: ProductFields; droppedImages?: { url: string; reason: string }[];
  }
  | { action: "preview"; page: "listing"; listing: { items: ListingItem[]; total: number; truncated: boolean }; message: string }
  | { action: "preview"; page: "blocked"; message: string }
  | { action: "preview"; page: "unknown"; message: string };
export interface IngestResult { action: "created" | "updated"; product: ProductFields & { id: string }; droppedImages?: { url: string; reason: string }[] }
