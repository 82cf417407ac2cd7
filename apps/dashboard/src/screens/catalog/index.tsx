import { useEffect, useRef, useState } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { destinationLabel, useChannelName, useDestinations } from "../../api/queries";
import { PageHeader } from "../../ui/PageHeader";
import { Pager } from "../../ui/Pager";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { MAX_SELECTION, useSelection } from "../../ui/selection";
import { FilterBar } from "./FilterBar";
import { filterQuery, isFiltered, type CatalogFilters } from "./filters";
import { ProductRow } from "./ProductRow";
import { UnpublishDialog } from "./UnpublishDialog";
import { countOf } from "../../ui/format";

const route = getRouteApi("/app/products");
const PAGE_SIZE = 25;
const DEBOUNCE_MS = 300;

interface SelectAllNote {
  tone: "warn" | "bad" | "ok";
  text: string;
}

export function Catalog() {
  const channelName = useChannelName();
  const { q = "", page = 1, listing, store, availability, stock, sort } = route.useSearch();
  const filters: CatalogFilters = { listing, store, availability, stock, sort };
  const filtered = isFiltered(filters);
  // What the list shows (search and filters): a note about "select all" belongs to one such list.
  const shown = JSON.stringify([q, filters]);
  const navigate = useNavigate({ from: "/products" });
  const [text, setText] = useState(q);
  const selection = useSelection();
  const [unpublishing, setUnpublishing] = useState(false);
  const destinations = useDestinations();
  const queryClient = useQueryClient();
  const [selectingAll, setSelectingAll] = useState(false);
  // What "select all matching" did, for the list it was made for: a new search or filter drops it.
  const [note, setNote] = useState<(SelectAllNote & { shown: string }) | null>(null);
  const selectAllNote = note?.shown === shown ? note : null;
  const setSelectAllNote = (next: SelectAllNote | null) => setNote(next && { ...next, shown });

  useEffect(() => {
    document.title = "Products · Catalog";
  }, []);

  // The URL is the source of truth; typing updates it after a pause (replacing the history entry).
  const lastPushed = useRef(q);
  useEffect(() => {
    if (q !== lastPushed.current) {
      lastPushed.current = q;
      setText(q);
    }
  }, [q]);
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === q) return;
    const timer = setTimeout(() => {
      lastPushed.current = trimmed;
      void navigate({
        search: (prev) => ({ ...prev, q: trimmed || undefined, page: undefined }),
        replace: true,
      });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q, navigate]);

  const query = { q: q || undefined, ...filterQuery(filters) };
  const list = useQuery({
    queryKey: qk.products.list({ ...query, page, pageSize: PAGE_SIZE }),
    queryFn: ({ signal }) =>
      endpoints.products.list({ ...query, page, pageSize: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  // A search's total is a lower bound past its count limit.
  const orMore = list.data?.totalExact === false ? " or more" : "";
  const pageIds = items.map((p) => p.id);
  const selectedOnPage = pageIds.filter((id) => selection.set.has(id)).length;
  const allOnPage = pageIds.length > 0 && selectedOnPage === pageIds.length;

  function setPage(next: number) {
    void navigate({ search: (prev) => ({ ...prev, page: next > 1 ? next : undefined }) });
  }

  /** A new choice of filters is a new history entry (Back returns to the previous choice). */
  function setFilters(next: CatalogFilters) {
    void navigate({
      search: (prev) => ({
        q: prev.q,
        listing: next.listing,
        store: next.store,
        availability: next.availability,
        stock: next.stock,
        sort: next.sort,
      }),
    });
  }

  /** Every product matching the search, up to the 500 one publish can take. */
  async function selectAllMatching() {
    setSelectingAll(true);
    setSelectAllNote(null);
    try {
      const ids: string[] = [];
      let totalMatching = 0;
      let matchingOrMore = "";
      for (let p = 1; ids.length < MAX_SELECTION; p++) {
        const result = await queryClient.fetchQuery({
          queryKey: qk.products.list({ ...query, page: p, pageSize: 100 }),
          queryFn: ({ signal }) =>
            endpoints.products.list({ ...query, page: p, pageSize: 100 }, signal),
        });
        totalMatching = result.total;
        if (result.totalExact === false) matchingOrMore = " or more";
        ids.push(...result.items.map((i) => i.id));
        if (p >= result.totalPages) break;
      }
      const chosen = ids.slice(0, MAX_SELECTION);
      selection.replace(chosen);
      setSelectAllNote(
        totalMatching > MAX_SELECTION
          ? {
              tone: "warn",
              text: `Selected the first ${MAX_SELECTION} of ${totalMatching.toLocaleString()}${matchingOrMore} matching products: one publish takes at most ${MAX_SELECTION}. Narrow the search to pick the rest.`,
            }
          : {
              tone: "ok",
              text: `Selected all ${chosen.length.toLocaleString()} matching products.`,
            },
      );
    } catch (err) {
      setSelectAllNote({ tone: "bad", text: `Could not select every match: ${errorMessage(err)}` });
    } finally {
      setSelectingAll(false);
    }
  }

  const publishHref = `/publish?ids=${selection.ids.join(",")}`;

  return (
    <div className="page">
      <PageHeader
        title="Catalog"
        description={
          list.data
            ? `${total.toLocaleString()}${orMore} ${q || filtered ? "matching " : ""}product${total === 1 && !orMore ? "" : "s"}`
            : "Your products, newest changes first."
        }
        actions={
          <Link to="/imports" search={{}} className="btn">
            Import products
          </Link>
        }
      />

      <div className="toolbar" role="search">
        <div className="field search">
          <label className="field-label visually-hidden" htmlFor="catalog-search">
            Search by title or SKU
          </label>
          <input
            id="catalog-search"
            className="input"
            type="search"
            placeholder="Search by title or SKU"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                lastPushed.current = text.trim();
                void navigate({
                  search: (prev) => ({ ...prev, q: text.trim() || undefined, page: undefined }),
                  replace: true,
                });
              }
            }}
          />
        </div>
        {list.isFetching && !list.isLoading ? (
          <span className="muted small" role="status">
            Updating…
          </span>
        ) : null}
      </div>

      <FilterBar
        filters={filters}
        stores={(destinations.data?.items ?? []).map((d) => [d.id, d.name] as const)}
        onChange={setFilters}
      />

      <ErrorMessage
        error={list.error}
        title="Could not load products"
        onRetry={() => void list.refetch()}
      />

      {list.isLoading ? (
        <Loading label="Loading products" />
      ) : list.data && items.length === 0 && page > 1 && total > 0 ? (
        <Empty
          title={`There is no page ${page}`}
          action={
            <button type="button" className="btn" onClick={() => setPage(1)}>
              Go to the first page
            </button>
          }
        >
          {`${total.toLocaleString()} products fill ${countOf(list.data.totalPages, "page")}.`}
        </Empty>
      ) : list.data && items.length === 0 ? (
        filtered ? (
          <Empty
            title="No products match these filters"
            action={
              <button type="button" className="btn" onClick={() => setFilters({ sort })}>
                Clear filters
              </button>
            }
          >
            {q ? `Searching for “${q}” among them too.` : "Choose other filters, or clear them."}
          </Empty>
        ) : q ? (
          <Empty
            title={`No products match “${q}”`}
            action={
              <button type="button" className="btn" onClick={() => setText("")}>
                Clear the search
              </button>
            }
          >
            Search looks at titles and SKUs, in any case.
          </Empty>
        ) : (
          <Empty
            title="No products yet"
            action={
              <Link to="/imports" search={{}} className="btn btn-primary">
                Import products
              </Link>
            }
          >
            Import product pages or a spreadsheet to fill your catalog.
          </Empty>
        )
      ) : items.length > 0 ? (
        <>
          <div className="table-wrap responsive media-rows">
            <table className="table">
              <thead>
                <tr>
                  <th className="check">
                    <input
                      type="checkbox"
                      className="checkbox"
                      aria-label="Select every product on this page"
                      checked={allOnPage}
                      ref={(el) => {
                        if (el) el.indeterminate = selectedOnPage > 0 && !allOnPage;
                      }}
                      onChange={(e) => selection.setMany(pageIds, e.target.checked)}
                    />
                  </th>
                  <th style={{ width: 60 }}>
                    <span className="visually-hidden">Image</span>
                  </th>
                  <th>Product</th>
                  <th>SKU</th>
                  <th className="num">Price</th>
                  <th>Availability</th>
                  <th className="num">Stock</th>
                  <th>Listings</th>
                </tr>
              </thead>
              <tbody>
                {items.map((p) => (
                  <ProductRow
                    key={p.id}
                    product={p}
                    selected={selection.set.has(p.id)}
                    onSelect={(on) => selection.toggle(p.id, on)}
                    destinationName={(id, channel) =>
                      destinationLabel(destinations.data?.items, id, channel, channelName)
                    }
                  />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            totalPages={list.data?.totalPages ?? 1}
            total={total}
            noun={["product", "products"]}
            exact={!orMore}
            onPage={setPage}
          />
          {total > pageIds.length &&
          !selectingAll &&
          !(selectAllNote && selectAllNote.tone !== "bad" && selection.ids.length > 0) ? (
            <p className="small muted">
              <button
                type="button"
                className="link-button"
                onClick={() => void selectAllMatching()}
              >
                Select all {Math.min(total, MAX_SELECTION).toLocaleString()}{" "}
                {total > MAX_SELECTION ? `of ${total.toLocaleString()}${orMore} ` : ""}matching
                products
              </button>
              {total > MAX_SELECTION ? ` (one publish takes at most ${MAX_SELECTION})` : null}
            </p>
          ) : selectingAll ? (
            <p className="small muted" role="status">
              Selecting every match…
            </p>
          ) : null}
          {selectAllNote && (selectAllNote.tone === "bad" || selection.ids.length > 0) ? (
            <div className={`alert alert-${selectAllNote.tone}`} role="status">
              <p>{selectAllNote.text}</p>
            </div>
          ) : null}
        </>
      ) : null}

      {selection.ids.length > 0 ? (
        <div className="selection-bar" role="region" aria-label="Selection">
          <span>
            <strong>{selection.ids.length.toLocaleString()}</strong> selected
            {selection.ids.length >= MAX_SELECTION ? ` (the most one publish takes)` : ""}
          </span>
          <span className="row">
            <button type="button" className="btn btn-sm" onClick={selection.clear}>
              Clear selection
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setUnpublishing(true)}>
              Unpublish from…
            </button>
            <a
              className="btn btn-primary btn-sm"
              href={publishHref}
              onClick={(e) => {
                if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                e.preventDefault();
                void navigate({ to: "/publish", search: { ids: selection.ids.join(",") } });
              }}
            >
              Publish selected
            </a>
          </span>
        </div>
      ) : null}
      <UnpublishDialog
        open={unpublishing}
        productIds={selection.ids}
        onClose={() => setUnpublishing(false)}
      />
    </div>
  );
}
