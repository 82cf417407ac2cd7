import { Link } from "@tanstack/react-router";
import type { ImportRow } from "@catalog/gateway/api-types";
import { ChangeList, Thumb } from "../../ui/ChangeList";
import { moneyText } from "../../ui/money";
import { StatusBadge } from "../../ui/StatusBadge";
import { plainFetchReason } from "../../lib/fetch-reasons";
import {
  BADGE_LABEL,
  STORED_LABEL,
  droppedImagesText,
  selectable,
  sentence,
  shortUrl,
} from "./rows";

/**
 * One previewed row: its checkbox (when it can be stored), page or row number, outcome, product and
 * changes.
 */
export function RowView({
  row: r,
  ready,
  included,
  onInclude,
}: {
  row: ImportRow;
  ready: boolean;
  included: boolean;
  onInclude: (on: boolean) => void;
}) {
  const canPick = ready && selectable(r);
  const leftOut = (canPick && !included) || r.skipped;
  const label = r.url ?? `Row ${r.row}`;
  const productTitle = r.match?.title ?? r.product?.title ?? null;
  const dropped = droppedImagesText(r.droppedImages ?? []);
  const image = r.product?.images[0] ?? null;
  const productId = r.match?.productId ?? r.storedProductId;
  const sku = r.match?.sku ?? r.product?.sku ?? null;
  return (
    <tr className={`${leftOut ? "left-out" : ""} outcome-${r.outcome}`}>
      {ready ? (
        <td className={`check${canPick ? "" : " cell-empty"}`} data-label="Store">
          {canPick ? (
            <input
              type="checkbox"
              className="checkbox"
              checked={included}
              onChange={(e) => onInclude(e.target.checked)}
              aria-label={`Store ${productTitle ?? label}`}
            />
          ) : (
            <span
              className="muted small"
              title={
                r.outcome === "error"
                  ? "Rows with errors cannot be stored"
                  : "Nothing to store: unchanged"
              }
            >
              —
            </span>
          )}
        </td>
      ) : null}
      <td data-label={r.url ? "Page" : "Row"} className="row-ref">
        {r.url ? (
          <a
            href={r.url}
            target="_blank"
            rel="noreferrer noopener"
            className="wrap-anywhere small"
            title={r.url}
          >
            {shortUrl(r.url)}
          </a>
        ) : (
          <span className="nowrap">Row {r.row}</span>
        )}
      </td>
      <td data-label="Outcome">
        <span className="badges">
          {r.stored ? (
            <StatusBadge
              status={r.stored}
              label={STORED_LABEL[r.stored]}
              title={`Previewed as ${BADGE_LABEL[r.outcome].toLowerCase()}`}
            />
          ) : (
            <>
              <StatusBadge status={r.outcome} label={BADGE_LABEL[r.outcome]} />
              {r.skipped || (ready && leftOut) ? (
                <StatusBadge status="skipped" label="Left out" tone="muted" />
              ) : null}
            </>
          )}
        </span>
      </td>
      <td data-label="Product" className={`row-product${productTitle ? "" : " cell-empty"}`}>
        <div className="row-product-inner">
          {image ? <Thumb className="thumb" src={image} size={44} /> : null}
          <div className="row-product-text">
            {productId && productTitle ? (
              <Link to="/products/$id" params={{ id: productId }} className="cell-title link-title">
                {productTitle}
              </Link>
            ) : productTitle ? (
              <span className="cell-title">{productTitle}</span>
            ) : (
              <span className="muted">—</span>
            )}
            {productTitle ? (
              <div className="cell-sub">
                {sku ? (
                  <>
                    SKU <span className="mono">{sku}</span> ·{" "}
                  </>
                ) : null}
                {r.match
                  ? `matched by ${r.match.by === "sku" ? "SKU" : "page address"}`
                  : r.product?.price
                    ? moneyText(r.product.price)
                    : "no price"}
              </div>
            ) : null}
          </div>
        </div>
      </td>
      <td data-label={r.outcome === "error" ? "Error" : "Changes"} className="row-changes">
        {r.outcome === "error" ? (
          <RowError error={r.error} page={r.url !== null} />
        ) : r.outcome === "unchanged" ? (
          <span className="muted small">Same as the catalog</span>
        ) : (
          <ChangeList
            changes={r.changes}
            isNew={r.outcome === "create"}
            hide={
              r.outcome === "create"
                ? r.url
                  ? ["title", "sku", "sourceUrl"]
                  : ["title", "sku"]
                : []
            }
          />
        )}
        {r.warnings.map((warning) => (
          <p key={warning} className="small warn-text">
            {sentence(warning)}
          </p>
        ))}
        {dropped ? (
          <p
            className="small warn-text"
            title={(r.droppedImages ?? []).map((d) => `${d.url}: ${d.reason}`).join("\n")}
          >
            {dropped}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * Why a row could not be read. A page's reason is said in plain words, the fetch layer's own
 * behind "Details"; a document row's error is already written for people.
 */
function RowError({ error, page }: { error: string | null; page: boolean }) {
  if (!error) return <span className="error-text">This row could not be read</span>;
  const plain = page ? plainFetchReason(error) : null;
  if (!plain) return <span className="error-text">{sentence(error)}</span>;
  return (
    <div className="row-error">
      <p className="error-text">
        <strong>{plain.title}.</strong> {plain.advice}
      </p>
      <details className="small">
        <summary>Details</summary>
        <p className="muted wrap-anywhere">{sentence(error)}</p>
      </details>
    </div>
  );
}
