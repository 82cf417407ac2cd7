/**
 * Previous / next with "page X of Y" and the total; the caller keeps the page (usually in the URL).
 */
export function Pager({
  page,
  totalPages,
  total,
  noun = "items",
  onPage,
}: {
  page: number;
  totalPages: number;
  total: number;
  noun?: string;
  onPage: (page: number) => void;
}) {
  if (total === 0) return null;
  const last = Math.max(1, totalPages);
  return (
    <nav className="pager" aria-label="Pages">
      <span>
        {total.toLocaleString()} {noun} · page {Math.min(page, last).toLocaleString()} of{" "}
        {last.toLocaleString()}
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
        <button
          type="button"
          className="btn btn-sm"
          disabled={page >= last}
          onClick={() => onPage(last)}
          aria-label="Last page"
        >
          »
        </button>
      </span>
    </nav>
  );
}
