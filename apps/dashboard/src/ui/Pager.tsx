import { plural } from "./format";

/**
 * Previous / next with "page X of Y" and the total; the caller keeps the page (usually in the URL).
 * A list whose total is a lower bound (`exact` false: a long list counted only so far) says
 * "or more" and offers no jump to a last page it does not know.
 */
export function Pager({
  page,
  totalPages,
  total,
  noun,
  exact = true,
  onPage,
}: {
  page: number;
  totalPages: number;
  total: number;
  /** What is counted, one and many: ["row", "rows"]. */
  noun: [one: string, many: string];
  exact?: boolean;
  onPage: (page: number) => void;
}) {
  if (total === 0) return null;
  const last = Math.max(1, totalPages);
  const orMore = exact ? "" : " or more";
  return (
    <nav className="pager" aria-label="Pages">
      <span>
        {total.toLocaleString()}
        {orMore} {exact ? plural(total, ...noun) : noun[1]} · page{" "}
        {Math.min(page, last).toLocaleString()} of {last.toLocaleString()}
        {orMore}
      </span>
      <span className="pager-buttons">
        <button
          type="button"
          className="btn btn-sm"
          disabled={page <= 1}
          onClick={() => onPage(1)}
          aria-label="First page"
        >
          «
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          Previous
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={page >= last}
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
        {exact ? (
          <button
            type="button"
            className="btn btn-sm"
            disabled={page >= last}
            onClick={() => onPage(last)}
            aria-label="Last page"
          >
            »
          </button>
        ) : null}
      </span>
    </nav>
  );
}
