export { extractProduct } from "./extract-product.js";
export { readPage, type PageReading } from "./read-page.js";
export type { Listing, ListingItem } from "./listing.js";
