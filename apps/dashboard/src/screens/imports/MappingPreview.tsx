// The mapping panel's live preview: the file's first rows as the catalog would read them with
// the mapping on screen, or why it cannot be read yet.
import type { ColumnsPreview } from "../../api/column-types";
import { errorMessage } from "../../api/client";
import { previewPrice, previewStock, previewVariants } from "./column-mapping";
import { countOf } from "../../ui/format";
import { Notice } from "../../ui/states";

const SHOWN = 10;

export function MappingPreview({
  data,
  updating,
  error,
  problems,
}: {
  data: ColumnsPreview | undefined;
  updating: boolean;
  error: unknown;
  problems: string[];
}) {
  const rows = data?.preview.slice(0, SHOWN) ?? [];
  const failed = data?.preview.filter((r) => !r.ok).length ?? 0;
  return (
    <section className="mapping-preview" aria-labelledby="mapping-preview-h">
      <div className="section-head">
        <h3 id="mapping-preview-h" className="mapping-h">
          Preview
        </h3>
        <span className="small muted" role="status" aria-live="polite">
          {updating
            ? "Updating…"
            : problems.length > 0
              ? ""
              : data
                ? `${countOf(data.preview.length, "sample row")} read${failed ? `, ${failed} with errors` : ""}`
                : ""}
        </span>
      </div>
      {problems.length > 0 ? (
        <div className="alert alert-warn">
          <p>
            <strong>Before the preview can be read:</strong>
          </p>
          <ul className="mapping-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : error ? (
        <Notice tone="bad">
          <p>{errorMessage(error)}</p>
        </Notice>
      ) : rows.length === 0 ? (
        <p className="muted small">{data ? "The file has no rows under its headers." : ""}</p>
      ) : (
        <div className={`table-wrap responsive${updating ? " is-updating" : ""}`}>
          <table className="table mapping-preview-table">
            <caption className="visually-hidden">
              The first rows of the file as the catalog would read them
            </caption>
            <thead>
              <tr>
                <th>Row</th>
                <th>Product name</th>
                <th>SKU</th>
                <th>Price</th>
                <th>Stock</th>
                <th>Variants</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) =>
                r.ok ? (
                  <tr key={r.row}>
                    <td data-label="Row">
                      <span>{r.row}</span>
                    </td>
                    <td data-label="Product name">
                      <span className="wrap-anywhere">{r.product.title || "—"}</span>
                    </td>
                    <td data-label="SKU">
                      <span className="wrap-anywhere">{r.product.sku || "—"}</span>
                    </td>
                    <td data-label="Price" className="nowrap">
                      <span>{previewPrice(r.product)}</span>
                    </td>
                    <td data-label="Stock">
                      <span>{previewStock(r.product)}</span>
                    </td>
                    <td data-label="Variants">
                      <span>{previewVariants(r.product)}</span>
                    </td>
                  </tr>
                ) : (
                  <tr key={r.row} className="row-error">
                    <td data-label="Row">
                      <span>{r.row}</span>
                    </td>
                    <td colSpan={5} data-label="Error">
                      <span className="error-text">{r.error}</span>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      {data && data.preview.length > SHOWN && problems.length === 0 ? (
        <p className="small muted">
          The first {SHOWN} of {data.preview.length} sample rows; the import reads them all.
        </p>
      ) : null}
    </section>
  );
}
