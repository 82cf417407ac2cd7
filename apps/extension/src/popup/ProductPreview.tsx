import { useState, type FormEvent, type ReactNode } from "react";
import type { ExtensionPreview, IngestResult } from "../shared/api";
import type { Capture, Pairing } from "../shared/protocol";
import { dashboardUrl } from "../shared/service-address";
import type { UserError } from "../shared/user-error";
import { ErrorView } from "./ErrorView";
import { AVAILABILITY, fieldName, moneyText, valueText } from "./format";
import { ask } from "./messaging";
import { editableDescription } from "./description";
import { checkDraft, draftOf, type Draft, type DraftField } from "./product-draft";

type ProductAnswer = Extract<ExtensionPreview, { page: "product" }>;

/**
 * What the service read from the page and what saving would do to the catalog; every field can
 * be corrected before saving. A save sends the same capture plus the edits, so what is stored is
 * what this screen showed.
 */
export function ProductPreview({
  pairing,
  capture,
  preview,
  onPairAgain,
}: {
  pairing: Pairing;
  capture: Capture;
  preview: ProductAnswer;
  onPairAgain: () => void;
}) {
  const product = preview.product;
  const [draft, setDraft] = useState<Draft>(() => draftOf(product));
  const [errors, setErrors] = useState<Partial<Record<DraftField, string>>>({});
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<UserError | null>(null);
  const [saved, setSaved] = useState<IngestResult | null>(null);
  const check = checkDraft(draft, product);
  const edited = check.ok ? Object.keys(check.edits).length : 1;
  const set = (field: DraftField) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    setFailure(null);
    const reply = await ask("save", { capture, edits: check.edits });
    setSaving(false);
    if (reply.ok) setSaved(reply.value);
    else setFailure(reply.error);
  }

  if (saved) return <Saved pairing={pairing} result={saved} />;

  const nothingToSave = preview.wouldBe === "unchanged" && edited === 0;
  const label = preview.match === null ? "Add to catalog" : "Update in catalog";
  return (
    <form className="stack" onSubmit={(e) => void save(e)} noValidate>
      <MatchBanner pairing={pairing} preview={preview} />
      <TextField
        id="title"
        label="Title"
        value={draft.title}
        onChange={set("title")}
        error={errors.title}
        edited={draft.title !== product.title}
      />
      <div className="field-row">
        <TextField
          id="amount"
          label="Price"
          value={draft.amount}
          onChange={set("amount")}
          error={errors.amount}
          inputMode="decimal"
          placeholder="19.99"
          edited={draft.amount !== (product.price?.amount ?? "")}
        />
        <TextField
          id="currency"
          label="Currency"
          value={draft.currency}
          onChange={(v) => set("currency")(v.toUpperCase())}
          error={errors.currency}
          placeholder="EUR"
          maxLength={3}
          className="narrow"
          edited={draft.currency !== (product.price?.currency ?? "")}
        />
      </div>
      <div className="field-row">
        <TextField
          id="sku"
          label="SKU"
          value={draft.sku}
          onChange={set("sku")}
          mono
          edited={draft.sku !== (product.sku ?? "")}
        />
        <div className="field">
          <label htmlFor="availability">
            Availability{" "}
            {draft.availability !== (product.availability ?? "") ? <EditedMark /> : null}
          </label>
          <select
            id="availability"
            className="input"
            value={draft.availability}
            onChange={(e) => set("availability")(e.target.value)}
          >
            <option value="">Not given</option>
            {Object.entries(AVAILABILITY).map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
            {draft.availability && !(draft.availability in AVAILABILITY) ? (
              <option value={draft.availability}>{draft.availability}</option>
            ) : null}
          </select>
        </div>
      </div>
      <div className="field-row">
        <TextField
          id="brand"
          label="Brand"
          value={draft.brand}
          onChange={set("brand")}
          edited={draft.brand !== (product.brand ?? "")}
        />
        <TextField
          id="quantity"
          label="Stock"
          value={draft.quantity}
          onChange={set("quantity")}
          error={errors.quantity}
          inputMode="numeric"
          placeholder="—"
          className="narrow"
          edited={draft.quantity !== (product.quantity === null ? "" : String(product.quantity))}
        />
      </div>
      <ImagePicker
        all={product.images}
        chosen={draft.images}
        onChange={(images) => setDraft((d) => ({ ...d, images }))}
        dropped={preview.droppedImages?.length ?? 0}
      />
      {product.variants.length > 0 ? <Variants variants={product.variants} /> : null}
      <details className="disclosure">
        <summary>
          Description{" "}
          {draft.description !== editableDescription(product.description) ? <EditedMark /> : null}
        </summary>
        <label htmlFor="description" className="visually-hidden">
          Description
        </label>
        <textarea
          id="description"
          className="input"
          rows={5}
          value={draft.description}
          onChange={(e) => set("description")(e.target.value)}
        />
      </details>
      {preview.wouldBe === "updated" ? <Changes changes={preview.changes} /> : null}
      {failure ? <ErrorView error={failure} onPairAgain={onPairAgain} /> : null}
      <div className="sticky-actions">
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={saving || nothingToSave}
        >
          {saving
            ? "Saving…"
            : nothingToSave
              ? "Nothing to save: the catalog has this already"
              : label}
        </button>
      </div>
    </form>
  );
}

function MatchBanner({ pairing, preview }: { pairing: Pairing; preview: ProductAnswer }) {
  const match = preview.match;
  if (!match)
    return (
      <div className="alert alert-info" role="status">
        <p>
          <strong>New product.</strong> It is not in your catalog yet.
        </p>
      </div>
    );
  const link = (
    <a
      href={dashboardUrl(pairing.serviceUrl, `/products/${match.productId}`)}
      target="_blank"
      rel="noreferrer"
    >
      {match.title}
    </a>
  );
  const by = match.by === "sku" ? "same SKU" : "same page";
  const count = changedFields(preview.changes).length;
  return (
    <div className="alert alert-ok" role="status">
      <p>
        <strong>Already in your catalog</strong> as {link} ({by}).{" "}
        {preview.wouldBe === "unchanged"
          ? "It has these details already."
          : `Saving updates ${count} field${count === 1 ? "" : "s"}.`}
      </p>
    </div>
  );
}

function EditedMark() {
  return <span className="tag">edited</span>;
}

function TextField({
  id,
  label,
  value,
  onChange,
  error,
  edited,
  mono,
  className,
  ...input
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  edited?: boolean;
  mono?: boolean;
  className?: string;
  inputMode?: "decimal" | "numeric";
  placeholder?: string;
  maxLength?: number;
}) {
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>
        {label} {edited ? <EditedMark /> : null}
      </label>
      <input
        id={id}
        className={`input${mono ? " mono" : ""}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function ImagePicker({
  all,
  chosen,
  onChange,
  dropped,
}: {
  all: string[];
  chosen: string[];
  onChange: (images: string[]) => void;
  dropped: number;
}) {
  const toggle = (url: string, on: boolean) =>
    onChange(all.filter((u) => (u === url ? on : chosen.includes(u))));
  return (
    <fieldset className="field">
      <legend>
        Images{" "}
        <span className="muted">
          {chosen.length} of {all.length} kept
        </span>
      </legend>
      {all.length === 0 ? (
        <p className="muted small">The page shows no product images.</p>
      ) : (
        <ul className="image-grid">
          {all.map((url, i) => (
            <li key={url}>
              <label className={chosen.includes(url) ? "image-choice on" : "image-choice"}>
                <input
                  type="checkbox"
                  checked={chosen.includes(url)}
                  onChange={(e) => toggle(url, e.target.checked)}
                  aria-label={`Keep image ${i + 1}`}
                />
                <img src={url} alt="" loading="lazy" referrerPolicy="no-referrer" />
              </label>
            </li>
          ))}
        </ul>
      )}
      {dropped > 0 ? (
        <p className="hint">
          {dropped} more image{dropped === 1 ? " is" : "s are"} left out: not on a public web
          address.
        </p>
      ) : null}
    </fieldset>
  );
}

function Variants({ variants }: { variants: ProductAnswer["product"]["variants"] }) {
  return (
    <details className="disclosure">
      <summary>
        {variants.length} variant{variants.length === 1 ? "" : "s"}
      </summary>
      <ul className="variant-list">
        {variants.map((v, i) => (
          <li key={`${v.sku ?? ""}-${i}`}>
            <span>{Object.values(v.options).join(" / ") || v.title || `Variant ${i + 1}`}</span>
            <span className="muted mono small">{v.sku ?? ""}</span>
            <span>{moneyText(v.price)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The page address a product came from is bookkeeping, not a change a merchant weighs. */
const changedFields = (changes: ProductAnswer["changes"]) =>
  Object.keys(changes).filter((f) => f !== "sourceUrl");

function Changes({ changes }: { changes: ProductAnswer["changes"] }) {
  const fields = changedFields(changes);
  if (fields.length === 0) return null;
  return (
    <section className="changes" aria-label="What saving changes">
      <h2>What saving changes in your catalog</h2>
      <ul>
        {fields.map((field): ReactNode => (
          <li key={field}>
            <span className="change-field">{fieldName(field)}</span>
            <span className="change-from">{valueText(field, changes[field]!.from)}</span> →{" "}
            <span className="change-to">{valueText(field, changes[field]!.to)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Saved({ pairing, result }: { pairing: Pairing; result: IngestResult }) {
  return (
    <div className="stack">
      <div className="alert alert-ok" role="status">
        <p>
          <strong>
            {result.action === "created" ? "Added to your catalog" : "Updated in your catalog"}:
          </strong>{" "}
          {result.product.title}
        </p>
      </div>
      <div className="actions">
        <a
          className="btn btn-primary"
          href={dashboardUrl(pairing.serviceUrl, `/products/${result.product.id}`)}
          target="_blank"
          rel="noreferrer"
        >
          Open it in the dashboard
        </a>
        <button type="button" className="btn" onClick={() => window.close()}>
          Done
        </button>
      </div>
    </div>
  );
}
