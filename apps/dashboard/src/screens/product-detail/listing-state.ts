import type { ProductDetail } from "@catalog/gateway/api-types";

export type Listing = ProductDetail["listings"][number];

/** A listing live on its store: it has a remote id and is not ended. */
export const isLive = (l: Listing) => l.remoteId !== null && l.status !== "ended";
