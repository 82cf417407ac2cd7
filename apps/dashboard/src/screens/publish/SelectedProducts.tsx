import { Link } from "@tanstack/react-router";
import { MAX_SELECTION } from "../../ui/selection";

/** How many of the products are named by title; the rest are counted. */
export const PREVIEW_TITLES = 4;

/**
 * The products to publish: the first few by title, the rest counted, and what is wrong with the
 * selection.
 */
export function SelectedProducts({
  ids,
  shown,
  missing,
}: {
  ids: string[];
  shown: { id: string; title: string }[];
  missing: number;
}) {
  return (
    <section className="card section" aria-labelledby="publish-products-h">
      <div className="card-body">
        <h2 id="publish-products-h" className="publish-products-h">
          Products
        </h2>
        <p className="publish-titles">
          {shown.map((p, n) => (
            <span key={p.id}>
              <Link to="/products/$id" params={{ id: p.id }}>
                {p.title}
              </Link>
              {n < shown.length - 1 ? ", " : ""}
            </span>
          ))}
          {ids.length > PREVIEW_TITLES ? (
            <> and {(ids.length - PREVIEW_TITLES).toLocaleString()} more</>
          ) : null}
        </p>
        {ids.length > MAX_SELECTION ? (
          <p className="error-text">
            One publish takes at most {MAX_SELECTION} products; {ids.length.toLocaleString()} are
            selected. Narrow the selection in the catalog.
          </p>
        ) : null}
        {missing > 0 ? (
          <p className="warn-text small">
            Some of these products are no longer in the catalog: publishing will name them.
          </p>
        ) : null}
        <Link to="/products" search={{}} className="small">
          Change the selection
        </Link>
      </div>
    </section>
  );
}
