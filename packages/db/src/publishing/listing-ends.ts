import type { Db } from "../client.js";
import type { PublishJobRecord } from "./publish-requests.js";

// Delisting (issue 29): ending listings is asynchronous like publishing. A request records one
// `end` sync log per live listing (the listing goes `ending`), the publish worker calls the
// channel's end and marks the listing `ended`; a product deleted while it had live listings is
// hidden at once (`deletedAt`) and its row removed when its last live listing has ended.

export interface ListingEndRequest {
  orgId: string;
  productIds: string[];
  destinationIds: string[];
  /** Why, for the sync log and the listing ("unpublished by owner@demo.local", "product deleted"). */
  trigger: string;
}

/** Records the ends and returns them, to be enqueued by the caller after its transaction. */
export async function requestListingEnds(
  _db: Db,
  _request: ListingEndRequest,
): Promise<PublishJobRecord[]> {
  return [];
}

/**
 * Called by the publish worker after a listing of the product ended: removes the product's row
 * (and so its listings) when the product was deleted and no listing of it is live any more.
 * Returns whether it removed it.
 */
export async function removeProductIfAllEnded(_db: Db, _productId: string): Promise<boolean> {
  return false;
}
