// One product of the catalog: selection, thumbnail, title, SKU, price, availability, stock and a
// badge per destination.
import { Link } from "@tanstack/react-router";
import type { ProductListItem } from "@catalog/gateway/api-types";
import { StatusBadge } from "../../ui/StatusBadge";
import { formatAvailability, formatMoney, formatRelative } from "../../ui/format";
import { formatQuantity } from "../../ui/stock";

export function ProductRow({
  product: p,
  selected,
  onSelect,
  destinationName,
}: {
  product: ProductListItem;
  selected: boolean;
  onSelect: (on: boolean) => void;
  destinationName: (id: string, channel: string) => string;
}) {
  const image = p.images[0];
  const listings = p.listings ?? [];
  return (
    <tr className={selected ? "selected" : undefined}>
      <td className="check">
        <input
          type="checkbox"
          className="checkbox"
          aria-label={`Select ${p.title}`}
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
        />
      </td>
      <td>
        {image ? (
          <img
            className="thumb"
            src={image}
            alt=""
            loading="lazy"
            width={44}
            height={44}
            referrerPolicy="no-referrer"
          />
        ) : (
          <span className="thumb thumb-empty" title="No image">
            <svg
              width="20"
              height="20"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
              aria-hidden="true"
            >
              <rect x="3" y="4" width="18" height="16" rx="2" />
              <circle cx="9" cy="10" r="1.8" />
              <path d="M4 18l5-5 4 4 3-3 4 4" />
            </svg>
            <span className="visually-hidden">No image</span>
          </span>
        )}
      </td>
      <td className="full title-cell">
        <Link to="/products/$id" params={{ id: p.id }} className="cell-title">
          {p.title}
        </Link>
        <div className="cell-sub">
          {p.brand ? `${p.brand} · ` : ""}updated {formatRelative(p.updatedAt)}
        </div>
      </td>
      <td data-label="SKU" className="nowrap">
        <span className="mono">{p.sku ?? "—"}</span>
      </td>
      <td data-label="Price" className="num nowrap">
        {formatMoney(p.price)}
      </td>
      <td data-label="Availability" className="nowrap">
        {formatAvailability(p.availability)}
      </td>
      <td data-label="Stock" className={`num nowrap${p.quantity === null ? " muted" : ""}`}>
        {formatQuantity(p.quantity)}
      </td>
      <td data-label="Listings" style={{ maxWidth: 300 }}>
        {listings.length === 0 ? (
          <span className="muted small">Not published</span>
        ) : (
          <span className="badges">
            {listings.map((l) => (
              <StatusBadge
                key={l.destinationAccountId}
                status={l.status}
                label={`${destinationName(l.destinationAccountId, l.channel)}: ${l.status}`}
              />
            ))}
          </span>
        )}
      </td>
    </tr>
  );
}
