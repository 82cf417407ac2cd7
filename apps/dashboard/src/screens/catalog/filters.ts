// The catalog's filters and orders, as the URL keeps them and the list API takes them.
import { AVAILABILITY, formatAvailability } from "../../ui/format";

export const LISTING_OPTIONS = [
  ["failed", "Failed"],
  ["published", "Published"],
  ["queued", "Waiting to publish"],
  ["publishing", "Publishing"],
  ["ending", "Being removed"],
  ["ended", "Removed"],
  ["notListed", "Not listed"],
] as const;
export type ListingState = (typeof LISTING_OPTIONS)[number][0];

export const STOCK_OPTIONS = [
  ["out", "Out of stock (0)"],
  ["low", "Low (1 to 5)"],
  ["in", "In stock (1 or more)"],
  ["unknown", "Not known"],
] as const;
export type StockLevel = (typeof STOCK_OPTIONS)[number][0];

export const SORT_OPTIONS = [
  ["updated", "Newest changes first"],
  ["title", "Title, A to Z"],
  ["stock", "Fewest in stock first"],
] as const;
export type CatalogSort = (typeof SORT_OPTIONS)[number][0];

export const AVAILABILITY_OPTIONS = AVAILABILITY.map((a) => [a, formatAvailability(a)] as const);

/** The catalog's search parameters besides `q` and `page`: all optional, the default when absent. */
export interface CatalogFilters {
  listing?: ListingState;
  store?: string;
  availability?: string;
  stock?: StockLevel;
  sort?: CatalogSort;
}

const oneOf = <T extends string>(options: readonly (readonly [T, string])[], value: unknown) =>
  options.find(([v]) => v === value)?.[0];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filters a URL holds; anything unknown is dropped (the URL is user input). */
export function readFilters(s: Record<string, unknown>): CatalogFilters {
  const sort = oneOf(SORT_OPTIONS, s.sort);
  return {
    listing: oneOf(LISTING_OPTIONS, s.listing),
    store: typeof s.store === "string" && UUID.test(s.store) ? s.store : undefined,
    availability: oneOf(AVAILABILITY_OPTIONS, s.availability),
    stock: oneOf(STOCK_OPTIONS, s.stock),
    sort: sort === "updated" ? undefined : sort,
  };
}

/** Whether any filter narrows the list (the order does not). */
export const isFiltered = (f: CatalogFilters) =>
  Boolean(f.listing || f.store || f.availability || f.stock);

/** The list API's query for these filters. */
export const filterQuery = (f: CatalogFilters) => ({
  listing: f.listing,
  destinationAccountId: f.store,
  availability: f.availability,
  stock: f.stock,
  sort: f.sort,
});
