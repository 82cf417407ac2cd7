// A product's fields, each with the import or edit that set it, its images, variants, attributes
// and source.
import type { ProductDetail } from "@catalog/gateway/api-types";
import { formatAvailability, formatDateTime, formatMoney, formatValue } from "../../ui/format";
import { formatQuantity } from "../../ui/stock";
import { Origin } from "./Origin";
import { useFieldOrigins } from "./useHistory";

const SOURCE_LABELS: Record<string, string> = {
  scrape: "Imported from a web page",
  document: "Imported from a spreadsheet or file",
  extension: "Captured with the browser extension",
  api: "Created through the API",
};

export function Overview({ product: p }: { product: ProductDetail }) {
  const origins = useFieldOrigins(p.id);
  const attributes = Object.entries(p.attributes ?? {});
  return (
    <>
      <div className="grid-2 section">
        <section className="card" aria-labelledby="details-h">
          <div className="card-header">
            <h2 id="details-h">Details</h2>
          </div>
          <div className="card-body">
            <dl className="dl">
              <dt>Title</dt>
              <dd>
                {p.title}
                <Origin entry={origins.get("title")} />
              </dd>
              <dt>SKU</dt>
              <dd>
                <span className="mono">{p.sku ?? "—"}</span>
                <Origin entry={origins.get("sku")} />
              </dd>
              <dt>Price</dt>
              <dd>
                {formatMoney(p.price)}
                <Origin entry={origins.get("price")} />
              </dd>
              <dt>Availability</dt>
              <dd>
                {formatAvailability(p.availability)}
                <Origin entry={origins.get("availability")} />
              </dd>
              <dt>Stock</dt>
              <dd>
                <span className={p.quantity === null ? "muted" : undefined}>
                  {formatQuantity(p.quantity)}
                </span>
                <Origin entry={origins.get("quantity")} />
              </dd>
              <dt>Brand</dt>
              <dd>
                {p.brand ?? "—"}
                <Origin entry={origins.get("brand")} />
              </dd>
              <dt>GTIN</dt>
              <dd>
                <span className="mono">{p.gtin ?? "—"}</span>
                <Origin entry={origins.get("gtin")} />
              </dd>
              <dt>MPN</dt>
              <dd>
                <span className="mono">{p.mpn ?? "—"}</span>
                <Origin entry={origins.get("mpn")} />
              </dd>
            </dl>
          </div>
        </section>
        <section className="card" aria-labelledby="source-h">
          <div className="card-header">
            <h2 id="source-h">Where it came from</h2>
          </div>
          <div className="card-body">
            <dl className="dl">
              <dt>Source</dt>
              <dd>{SOURCE_LABELS[p.source] ?? p.source}</dd>
              <dt>Source page</dt>
              <dd>
                {p.sourceUrl ? (
                  <a href={p.sourceUrl} target="_blank" rel="noreferrer noopener">
                    {p.sourceUrl}
                  </a>
                ) : (
                  "—"
                )}
              </dd>
              <dt>Created</dt>
              <dd>{formatDateTime(p.createdAt)}</dd>
              <dt>Last changed</dt>
              <dd>{formatDateTime(p.updatedAt)}</dd>
              <dt>Version</dt>
              <dd>{p.version}</dd>
            </dl>
            <p className="small muted" style={{ marginTop: 12, marginBottom: 0 }}>
              Beside each field: the import or edit that set its current value. Every change is in
              the history below.
            </p>
          </div>
        </section>
      </div>

      <section className="section card" aria-labelledby="desc-h">
        <div className="card-header">
          <h2 id="desc-h">Description</h2>
          <Origin entry={origins.get("description")} />
        </div>
        <div className="card-body">
          {/* The API's description is HTML it cleaned against its allow-list on this very read (no script, handler, style or
              javascript: link can be in it), so it is shown as the channels that take HTML will show it. */}
          {p.description ? (
            <div className="description" dangerouslySetInnerHTML={{ __html: p.description }} />
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              No description.
            </p>
          )}
        </div>
      </section>

      <section className="section card" aria-labelledby="images-h">
        <div className="card-header">
          <h2 id="images-h">
            Images <span className="muted small">{p.images.length}</span>
          </h2>
          <Origin entry={origins.get("images")} />
        </div>
        <div className="card-body">
          {p.images.length === 0 ? (
            <p className="muted" style={{ margin: 0 }}>
              No images.
            </p>
          ) : (
            <div className="gallery">
              {p.images.map((src, i) => (
                <a key={src + i} href={src} target="_blank" rel="noreferrer noopener" title={src}>
                  <img
                    src={src}
                    alt={`${p.title}, image ${i + 1}`}
                    loading="lazy"
                    referrerPolicy="no-referrer"
                  />
                </a>
              ))}
            </div>
          )}
        </div>
      </section>

      <section className="section" aria-labelledby="variants-h">
        <div className="row" style={{ marginBottom: 8 }}>
          <h2 id="variants-h">Variants</h2>
          <span className="muted small">{p.variants.length}</span>
        </div>
        {p.variants.length === 0 ? (
          <div className="card card-body muted">This product has no variants.</div>
        ) : (
          <div className="table-wrap responsive">
            <table className="table">
              <thead>
                <tr>
                  <th>Variant</th>
                  <th>SKU</th>
                  <th>Options</th>
                  <th className="num">Price</th>
                  <th>GTIN</th>
                  <th>Availability</th>
                  <th className="num">Stock</th>
                </tr>
              </thead>
              <tbody>
                {p.variants.map((v, i) => (
                  <tr key={(v.sku ?? "") + i}>
                    <td className="full">
                      <span className="row" style={{ gap: 10, flexWrap: "nowrap" }}>
                        {v.image ? (
                          <img
                            className="thumb"
                            src={v.image}
                            alt=""
                            loading="lazy"
                            referrerPolicy="no-referrer"
                          />
                        ) : null}
                        <span className="cell-title">{v.title ?? `Variant ${i + 1}`}</span>
                      </span>
                    </td>
                    <td data-label="SKU" className="mono">
                      {v.sku ?? "—"}
                    </td>
                    <td data-label="Options">
                      {Object.entries(v.options)
                        .map(([k, val]) => `${k}: ${val}`)
                        .join(", ") || "—"}
                    </td>
                    <td data-label="Price" className="num nowrap">
                      {formatMoney(v.price)}
                    </td>
                    <td data-label="GTIN" className="mono">
                      {v.gtin ?? "—"}
                    </td>
                    <td data-label="Availability">{formatAvailability(v.availability)}</td>
                    <td data-label="Stock" className="num nowrap">
                      {formatQuantity(v.quantity)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {attributes.length > 0 ? (
        <section className="section card" aria-labelledby="attrs-h">
          <div className="card-header">
            <h2 id="attrs-h">Other attributes</h2>
          </div>
          <div className="card-body">
            <dl className="dl">
              {attributes.map(([k, v]) => (
                <div key={k} style={{ display: "contents" }}>
                  <dt>{k}</dt>
                  <dd>{formatValue(v)}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>
      ) : null}
    </>
  );
}
