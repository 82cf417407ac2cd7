import {
  AVAILABILITY_OPTIONS,
  LISTING_OPTIONS,
  SORT_OPTIONS,
  STOCK_OPTIONS,
  isFiltered,
  type CatalogFilters,
} from "./filters";

/** The catalog's filters and order: each a list, applied at once; "Clear filters" when any is set. */
export function FilterBar({
  filters,
  stores,
  onChange,
}: {
  filters: CatalogFilters;
  /** The org's stores: id and name. */
  stores: (readonly [string, string])[];
  onChange: (next: CatalogFilters) => void;
}) {
  const set = (key: keyof CatalogFilters) => (e: React.ChangeEvent<HTMLSelectElement>) =>
    onChange({ ...filters, [key]: e.target.value || undefined });
  const select = (
    key: keyof CatalogFilters,
    label: string,
    any: string,
    options: readonly (readonly [string, string])[],
  ) => (
    <div className={`field filter-${key}`}>
      <label className="field-label" htmlFor={`catalog-${key}`}>
        {label}
      </label>
      <select
        id={`catalog-${key}`}
        className="select"
        value={filters[key] ?? ""}
        onChange={set(key)}
      >
        <option value="">{any}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  // A store named in the URL but gone (disconnected) still shows as chosen, so it can be cleared.
  const storeOptions =
    filters.store && !stores.some(([id]) => id === filters.store)
      ? [...stores, [filters.store, "A disconnected store"] as const]
      : stores;
  return (
    <div className="filter-bar" role="group" aria-label="Filters">
      {select("listing", "Listing", "Any state", LISTING_OPTIONS)}
      {select("store", "Store", "Any store", storeOptions)}
      {select("availability", "Availability", "Any", AVAILABILITY_OPTIONS)}
      {select("stock", "Stock", "Any", STOCK_OPTIONS)}
      {/* The default order is the "any" choice: absent from the URL. */}
      {select("sort", "Sort", SORT_OPTIONS[0][1], SORT_OPTIONS.slice(1))}
      {isFiltered(filters) ? (
        <button
          type="button"
          className="btn btn-sm btn-ghost filter-clear"
          onClick={() => onChange({ sort: filters.sort })}
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
