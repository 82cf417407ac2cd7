// A field-level diff, readable: money as "19.99 USD", long text shortened with a way to see it
// all, images as thumbnails, variants and attributes summarised. Used by the import preview.
import { useState, type ReactNode } from "react";
import { descriptionText } from "./description";
import { FIELD_LABELS, formatAvailability, countOf } from "./format";
import { isMoney, moneyText } from "./money";

type Change = { from: unknown; to: unknown };

const LONG_TEXT = 140;
const MANY_FIELDS = 5;
/** The order a merchant reads a product in; other fields follow alphabetically. */
const ORDER = [
  "title",
  "sku",
  "price",
  "availability",
  "quantity",
  "brand",
  "description",
  "images",
  "variants",
  "gtin",
  "mpn",
  "attributes",
  "sourceUrl",
];

function isEmptyValue(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    v === "" ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)
  );
}

function sortFields(names: string[]): string[] {
  return [...names].sort((a, b) => {
    const ia = ORDER.indexOf(a),
      ib = ORDER.indexOf(b);
    if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    return a.localeCompare(b);
  });
}

/** Long text: the first LONG_TEXT characters and a button that shows the rest in place. */
function LongText({ text, className }: { text: string; className?: string }) {
  const [open, setOpen] = useState(false);
  if (text.length <= LONG_TEXT) return <span className={className}>{text}</span>;
  return (
    <span className={className}>
      {open ? text : `${text.slice(0, LONG_TEXT).trimEnd()}…`}{" "}
      <button
        type="button"
        className="link-button small"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
      >
        {open ? "Show less" : `Show all ${text.length.toLocaleString()} characters`}
      </button>
    </span>
  );
}

/**
 * A small image that shows a plain box instead of the browser's broken-image icon when it cannot
 * load.
 */
export function Thumb({
  src,
  size,
  alt = "",
  className,
}: {
  src: string;
  size: number;
  alt?: string;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  // The gateway's content security policy loads images over https only (or from itself); an
  // http:// image would be blocked with a console error, so it is not requested at all.
  const allowed = /^(https:|data:|\/(?!\/))/i.test(src);
  if (failed || !allowed) {
    const why = allowed ? `Could not load ${src}` : `Not shown (not an https address): ${src}`;
    return (
      <span
        className={`thumb-failed ${className ?? ""}`}
        style={{ width: size, height: size }}
        title={why}
        role="img"
        aria-label={alt || why}
      >
        ?
      </span>
    );
  }
  return (
    <img
      className={className}
      src={src}
      alt={alt}
      loading="lazy"
      width={size}
      height={size}
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

function Images({ urls, className }: { urls: string[]; className?: string }) {
  const shown = urls.slice(0, 4);
  return (
    <span className={`diff-images ${className ?? ""}`}>
      {shown.map((u, i) => (
        <a key={`${u}-${i}`} href={u} target="_blank" rel="noreferrer noopener" title={u}>
          <Thumb src={u} size={36} alt={`Image ${i + 1}`} />
        </a>
      ))}
      <span className="small">{countOf(urls.length, "image")}</span>
    </span>
  );
}

function variantLine(v: unknown): string {
  if (typeof v !== "object" || v === null) return String(v);
  const o = v as Record<string, unknown>;
  const options =
    o.options && typeof o.options === "object"
      ? Object.entries(o.options as Record<string, unknown>)
          .map(([k, x]) => `${k}: ${String(x)}`)
          .join(", ")
      : "";
  const parts = [
    o.title,
    typeof o.sku === "string" || typeof o.sku === "number" ? `SKU ${o.sku}` : null,
    isMoney(o.price) ? moneyText(o.price) : null,
    options || null,
    typeof o.quantity === "number" ? `stock ${o.quantity}` : null,
  ].filter(Boolean);
  return parts.join(" · ") || "variant";
}

/**
 * Two long texts that differ in a few places: the changed part in context
 * ("…holds [350 → 450] ml of coffee…"), and a button that shows both in full.
 */
function TextDiff({ from, to }: { from: string; to: string }) {
  const [open, setOpen] = useState(false);
  let start = 0;
  while (start < from.length && start < to.length && from[start] === to[start]) start++;
  let end = 0;
  while (
    end < from.length - start &&
    end < to.length - start &&
    from[from.length - 1 - end] === to[to.length - 1 - end]
  )
    end++;
  // Whole words read better than cut ones.
  while (start > 0 && /\S/.test(from[start - 1]!)) start--;
  while (end > 0 && /\S/.test(from[from.length - end]!)) end--;
  const CONTEXT = 40;
  const before = from.slice(Math.max(0, start - CONTEXT), start);
  const after = from.slice(from.length - end, Math.min(from.length, from.length - end + CONTEXT));
  const removed = from.slice(start, from.length - end);
  const added = to.slice(start, to.length - end);
  if (open) {
    return (
      <span className="text-diff">
        <span className="diff-from">{from}</span>
        <span className="change-arrow" aria-label="changes to">
          {" "}
          →{" "}
        </span>
        <span className="diff-to">{to}</span>{" "}
        <button
          type="button"
          className="link-button small"
          onClick={() => setOpen(false)}
          aria-expanded
        >
          Show only the change
        </button>
      </span>
    );
  }
  const clip = (t: string) => (t.length > LONG_TEXT ? `${t.slice(0, LONG_TEXT)}…` : t);
  return (
    <span className="text-diff">
      {start > CONTEXT ? "…" : ""}
      {before}
      {removed ? <del className="diff-from">{clip(removed)}</del> : null}
      {added ? <ins className="diff-to">{clip(added)}</ins> : null}
      {after}
      {from.length - end + CONTEXT < from.length ? "…" : ""}{" "}
      <button
        type="button"
        className="link-button small"
        onClick={() => setOpen(true)}
        aria-expanded={false}
      >
        Show both in full
      </button>
    </span>
  );
}

/** One side of a change, readable. */
export function ValueView({
  field,
  value,
  tone,
}: {
  field: string;
  value: unknown;
  tone: "from" | "to" | "plain";
}) {
  const cls = tone === "from" ? "diff-from" : tone === "to" ? "diff-to" : undefined;
  if (isEmptyValue(value)) return <span className="muted">(empty)</span>;
  if (isMoney(value)) return <span className={cls}>{moneyText(value)}</span>;
  if (field === "images" && Array.isArray(value))
    return <Images urls={value.map(String)} className={tone === "from" ? "faded" : undefined} />;
  if (field === "availability" && typeof value === "string")
    return <span className={cls}>{formatAvailability(value)}</span>;
  if (field === "variants" && Array.isArray(value)) {
    return (
      <details className="diff-details">
        <summary className={cls}>{countOf(value.length, "variant")}</summary>
        <ul>
          {value.slice(0, 50).map((v, i) => (
            <li key={i}>{variantLine(v)}</li>
          ))}
          {value.length > 50 ? <li>…and {value.length - 50} more</li> : null}
        </ul>
      </details>
    );
  }
  if (typeof value === "string") return <LongText text={value} className={cls} />;
  if (typeof value === "number" || typeof value === "boolean")
    return <span className={cls}>{String(value)}</span>;
  if (Array.isArray(value))
    return (
      <LongText
        text={value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ")}
        className={cls}
      />
    );
  if (typeof value === "object") {
    const text = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join("; ");
    return <LongText text={text} className={cls} />;
  }
  return <span className={cls}>{JSON.stringify(value) ?? typeof value}</span>;
}

/** A description's change as text: the diff is about what a shopper reads, not the markup. */
function readable(field: string, change: Change): Change {
  if (field !== "description") return change;
  const text = (v: unknown) => (typeof v === "string" ? descriptionText(v) : v);
  return { from: text(change.from), to: text(change.to) };
}

/**
 * The changes of one row. For a new product (`isNew`), only the fields it will have, without
 * a "from"; for an update, "field: from → to". The first few fields show; a button shows the rest.
 */
export function ChangeList({
  changes,
  isNew,
  empty,
  hide = [],
}: {
  changes: Record<string, Change>;
  isNew: boolean;
  empty?: ReactNode;
  hide?: string[];
}) {
  const [all, setAll] = useState(false);
  const fields = sortFields(
    Object.keys(changes).filter(
      (f) => !hide.includes(f) && !(isNew && isEmptyValue(changes[f]?.to)),
    ),
  );
  if (fields.length === 0) return <span className="muted small">{empty ?? "No changes"}</span>;
  const shown = all ? fields : fields.slice(0, MANY_FIELDS);
  return (
    <div className="change-list">
      <ul>
        {shown.map((f) => {
          const c = readable(f, changes[f]!);
          return (
            <li key={f}>
              <span className="change-field">{FIELD_LABELS[f] ?? f}</span>
              {isNew ? (
                <ValueView field={f} value={c.to} tone="plain" />
              ) : typeof c.from === "string" &&
                typeof c.to === "string" &&
                (c.from.length > LONG_TEXT || c.to.length > LONG_TEXT) ? (
                <TextDiff from={c.from} to={c.to} />
              ) : (
                <span className="change-values">
                  <ValueView field={f} value={c.from} tone="from" />
                  <span className="change-arrow" aria-label="changes to">
                    {" "}
                    →{" "}
                  </span>
                  <ValueView field={f} value={c.to} tone="to" />
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {fields.length > MANY_FIELDS ? (
        <button
          type="button"
          className="link-button small"
          onClick={() => setAll((a) => !a)}
          aria-expanded={all}
        >
          {all ? "Show fewer fields" : `Show all ${fields.length} fields`}
        </button>
      ) : null}
    </div>
  );
}
