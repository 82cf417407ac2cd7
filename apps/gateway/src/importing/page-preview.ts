import { productsBySourceUrl, type Actor, type Db, type ImportItem } from "@catalog/db";
import { emptyCandidate, type Listing, type ProductCandidate } from "@catalog/extract";
import type { Static } from "typebox";
import { MAX_EXTENSION_IMPORT_URLS } from "../schemas/import.js";
import type { ExtensionPreviewSchema } from "../schemas/page-preview.js";
import type { ImageScreen } from "./image-screen.js";
import { storableMoney } from "./page-read-bounds.js";
import { previewEntries } from "./preview-rows.js";

type ExtensionPreview = Static<typeof ExtensionPreviewSchema>;

const WOULD_BE = { create: "created", update: "updated", unchanged: "unchanged" } as const;

/**
 * The extension's own fields (or the user's corrections) over what the service read in the page; a
 * null empties the field.
 */
export function withExtensionFields(
  url: string,
  read: ProductCandidate | null,
  given: Record<string, unknown> | undefined,
): ProductCandidate {
  const candidate = read ?? emptyCandidate(url);
  candidate.sourceUrl = url;
  for (const [field, value] of Object.entries(given ?? {})) {
    if (value === undefined) continue;
    (candidate as unknown as Record<string, unknown>)[field] = value;
    candidate.provenance[field as keyof ProductCandidate["provenance"]] = {
      source: "extension",
      method: `product.${field}`,
    };
  }
  return candidate;
}

/** What saving the page would do to the catalog: the same plan an import makes, nothing written. */
export async function productPreview(
  db: Db,
  orgId: string,
  actor: Actor,
  item: ImportItem,
  screenImages: ImageScreen,
): Promise<ExtensionPreview> {
  const [row] = await previewEntries(db, orgId, { actor, source: "extension" }, screenImages, [
    { at: { row: 1, url: item.fields.sourceUrl ?? null }, item },
  ]);
  if (!row || row.outcome === "error" || row.product === null)
    throw new Error("a preview of an importable item has a product");
  return {
    action: "preview",
    page: "product",
    wouldBe: WOULD_BE[row.outcome],
    match: row.match,
    changes: row.changes,
    product: row.product,
    ...(row.droppedImages.length > 0 ? { droppedImages: row.droppedImages } : {}),
  };
}

/** A category or search page: its products, each marked when the org imported it already. */
export async function listingPreview(
  db: Db,
  orgId: string,
  listing: Listing,
): Promise<ExtensionPreview> {
  const known = await productsBySourceUrl(
    db,
    orgId,
    listing.items.map((item) => item.url),
  );
  const shown =
    listing.items.length < listing.total ? `; the first ${listing.items.length} are listed` : "";
  return {
    action: "preview",
    page: "listing",
    listing: {
      items: listing.items.map((item) => ({
        ...item,
        price: storableMoney(item.price),
        inCatalog: known.get(item.url) ?? null,
      })),
      total: listing.total,
      truncated: listing.items.length < listing.total,
    },
    message: `This page lists ${listing.total} product${listing.total === 1 ? "" : "s"}${shown}: choose the ones to import, up to ${MAX_EXTENSION_IMPORT_URLS} at a time.`,
  };
}

export const robotCheckMessage = (by: string) =>
  `This page is a robot check (${by}), not the shop's page: pass the check in the page (the shop appears once it is passed), then try again.`;

export const NOT_A_PRODUCT_PAGE =
  "This page doesn't look like a product page: no product and no list of products was found on it. Open a product's own page, or enter the product by hand.";
