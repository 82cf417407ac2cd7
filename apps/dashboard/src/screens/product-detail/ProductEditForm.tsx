import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProductDetail, ProductPatch } from "@catalog/gateway/api-types";
import { ApiError, errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useSession } from "../../api/session";
import { CurrencySelect } from "../../ui/CurrencySelect";
import { Field } from "../../ui/Field";
import { AVAILABILITY, formatAvailability } from "../../ui/format";
import {
  fieldOf,
  moveUp,
  toForm,
  toPatch,
  validate,
  type Errors,
  type FormState,
} from "./edit-form";
import { dropDraft, keepDraft, type ProductDraft } from "./draft";
import { Notice } from "../../ui/states";

const DRAFT_SAVING = "Saving the changes you made before your session ended…";
const DRAFT_BACK = "Your changes from before your session ended are back in the form.";

/** A draft that can be saved as it is: valid, and changing something. */
const resubmittable = (draft: ProductDraft) =>
  Object.keys(validate(draft.form)).length === 0 &&
  Object.keys(toPatch(draft.form, draft.base)).length > 1;

export function ProductEditForm({
  product,
  draft,
  onSaved,
  onCancel,
}: {
  product: ProductDetail;
  /** Changes made before the session ended: shown, and saved again over the version they began from. */
  draft?: ProductDraft | null;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const userId = useSession().user.id;
  const [base, setBase] = useState(draft?.base ?? product);
  const [form, setForm] = useState<FormState>(() => draft?.form ?? toForm(product));
  const [errors, setErrors] = useState<Errors>({});
  const [conflict, setConflict] = useState(false);
  const [reloading, setReloading] = useState(false);
  const [note, setNote] = useState<string | null>(() =>
    !draft ? null : resubmittable(draft) ? DRAFT_SAVING : `${DRAFT_BACK} Save them to keep them.`,
  );
  const save = useMutation({
    // A save the ended session refused keeps the draft for after signing in (the 401 has already
    // sent the person to sign in); any other answer ends the draft's life.
    mutationFn: async ({ patch, typed }: { patch: ProductPatch; typed: FormState }) => {
      try {
        const saved = await endpoints.products.update(base.id, patch);
        dropDraft(userId, base.id);
        return saved;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) keepDraft(userId, { form: typed, base });
        else dropDraft(userId, base.id);
        throw err;
      }
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: qk.products.all });
      onSaved();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) {
        setConflict(true);
      } else if (err instanceof ApiError && err.status === 422) {
        const field = fieldOf(err.message);
        setErrors(field ? { [field]: errorMessage(err) } : { form: errorMessage(err) });
      } else {
        setErrors({ form: errorMessage(err) });
      }
    },
  });

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  function submit(e: SubmitEvent) {
    e.preventDefault();
    setNote(null);
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    const patch = toPatch(form, base);
    if (Object.keys(patch).length === 1) {
      onCancel();
      return;
    }
    save.mutate({ patch, typed: form });
  }

  // Back from signing in with a draft: save it again at once, as the person asked before their
  // session ended. Its version is the one they edited: if the product changed meanwhile, the
  // answer is the stale-edit conflict below, never a silent overwrite.
  const resubmitted = useRef(false);
  useEffect(() => {
    if (!draft || resubmitted.current) return;
    resubmitted.current = true;
    if (!resubmittable(draft)) {
      dropDraft(userId, draft.base.id);
      return;
    }
    save.mutate(
      { patch: toPatch(draft.form, draft.base), typed: draft.form },
      { onSettled: () => setNote(DRAFT_BACK) },
    );
  }, [draft, save, userId]);

  async function reload() {
    setReloading(true);
    try {
      const fresh = await queryClient.fetchQuery({
        queryKey: qk.products.detail(base.id),
        queryFn: () => endpoints.products.get(base.id),
        staleTime: 0,
      });
      void queryClient.invalidateQueries({ queryKey: qk.products.history(base.id) });
      setBase(fresh);
      setForm(toForm(fresh));
      setErrors({});
      setConflict(false);
      setNote(
        `Reloaded version ${fresh.version}. Your changes were not saved: make them again on the current product.`,
      );
    } catch (err) {
      setErrors({ form: errorMessage(err) });
    } finally {
      setReloading(false);
    }
  }

  const availabilityOptions: string[] = [...AVAILABILITY];
  if (form.availability && !availabilityOptions.includes(form.availability))
    availabilityOptions.push(form.availability);

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field label="Title" error={errors.title}>
        {(p) => (
          <input
            {...p}
            className="input"
            value={form.title}
            onChange={(e) => set("title", e.target.value)}
            required
            maxLength={500}
          />
        )}
      </Field>
      <div className="grid-3">
        <Field
          label="SKU"
          error={errors.sku}
          hint="Unique in your catalog; imports match products by it"
        >
          {(p) => (
            <input
              {...p}
              className="input mono"
              value={form.sku}
              onChange={(e) => set("sku", e.target.value)}
              maxLength={255}
            />
          )}
        </Field>
        <Field label="Availability" error={errors.availability}>
          {(p) => (
            <select
              {...p}
              className="select"
              value={form.availability}
              onChange={(e) => set("availability", e.target.value)}
            >
              <option value="">Not set</option>
              {availabilityOptions.map((a) => (
                <option key={a} value={a}>
                  {formatAvailability(a)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Stock"
          error={errors.quantity}
          hint="Units on hand; empty if unknown. 0 makes it out of stock, more makes it in stock."
        >
          {(p) => (
            <input
              {...p}
              className="input"
              inputMode="numeric"
              placeholder="unknown"
              value={form.quantity}
              onChange={(e) => set("quantity", e.target.value)}
            />
          )}
        </Field>
      </div>
      {base.variants.length > 0 ? (
        <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="field-label" style={{ marginBottom: 6 }}>
            Stock per variant
          </legend>
          <div className="grid-3">
            {base.variants.map((v, i) => (
              <div key={(v.sku ?? "") + i} className="row" style={{ flexWrap: "nowrap" }}>
                <label htmlFor={`variant-stock-${i}`} className="small" style={{ minWidth: 90 }}>
                  {v.title ?? v.sku ?? `Variant ${i + 1}`}
                </label>
                <input
                  id={`variant-stock-${i}`}
                  className="input"
                  inputMode="numeric"
                  placeholder="unknown"
                  value={form.variantQuantities[i] ?? ""}
                  onChange={(e) =>
                    set(
                      "variantQuantities",
                      form.variantQuantities.map((q, j) => (j === i ? e.target.value : q)),
                    )
                  }
                />
              </div>
            ))}
          </div>
          {errors.variantQuantities ? (
            <span className="field-error">{errors.variantQuantities}</span>
          ) : null}
        </fieldset>
      ) : null}
      <div className="grid-2">
        <Field label="Price" error={errors.amount} hint="Leave empty for no price">
          {(p) => (
            <input
              {...p}
              className="input"
              inputMode="decimal"
              placeholder="19.99"
              value={form.amount}
              onChange={(e) => set("amount", e.target.value)}
            />
          )}
        </Field>
        <Field label="Currency" error={errors.currency}>
          {(p) => (
            <CurrencySelect
              {...p}
              value={form.currency}
              onChange={(code) => set("currency", code)}
              none="Choose…"
            />
          )}
        </Field>
      </div>
      <div className="grid-3">
        <Field label="Brand" error={errors.brand}>
          {(p) => (
            <input
              {...p}
              className="input"
              value={form.brand}
              onChange={(e) => set("brand", e.target.value)}
              maxLength={255}
            />
          )}
        </Field>
        <Field label="GTIN" error={errors.gtin} hint="8 to 14 digits (EAN, UPC)">
          {(p) => (
            <input
              {...p}
              className="input mono"
              inputMode="numeric"
              value={form.gtin}
              onChange={(e) => set("gtin", e.target.value)}
            />
          )}
        </Field>
        <Field label="MPN" error={errors.mpn}>
          {(p) => (
            <input
              {...p}
              className="input mono"
              value={form.mpn}
              onChange={(e) => set("mpn", e.target.value)}
              maxLength={255}
            />
          )}
        </Field>
      </div>
      <Field
        label="Description"
        error={errors.description}
        hint="Plain text (a blank line starts a paragraph), or HTML: paragraphs, headings, lists, tables, bold, italic and links are kept; anything else is removed."
      >
        {(p) => (
          <textarea
            {...p}
            className="textarea"
            value={form.description}
            onChange={(e) => set("description", e.target.value)}
            rows={6}
          />
        )}
      </Field>

      <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="field-label" style={{ marginBottom: 6 }}>
          Images
        </legend>
        {form.images.length === 0 ? (
          <p className="muted small" style={{ margin: 0 }}>
            No images.
          </p>
        ) : null}
        {form.images.map((url, i) => (
          <div key={i} className="row" style={{ flexWrap: "nowrap" }}>
            {url ? (
              <img
                className="thumb"
                src={url}
                alt=""
                referrerPolicy="no-referrer"
                onError={(e) => {
                  e.currentTarget.style.visibility = "hidden";
                }}
              />
            ) : (
              <span className="thumb thumb-empty" aria-hidden="true" />
            )}
            <label className="visually-hidden" htmlFor={`image-${i}`}>
              Image {i + 1} address
            </label>
            <input
              id={`image-${i}`}
              className="input"
              type="url"
              placeholder="https://…"
              value={url}
              onChange={(e) =>
                set(
                  "images",
                  form.images.map((u, j) => (j === i ? e.target.value : u)),
                )
              }
            />
            <button
              type="button"
              className="btn btn-sm"
              aria-label={`Move image ${i + 1} up`}
              disabled={i === 0}
              onClick={() => set("images", moveUp(form.images, i))}
              title="Move up"
            >
              ↑
            </button>
            <button
              type="button"
              className="btn btn-sm"
              aria-label={`Remove image ${i + 1}`}
              onClick={() =>
                set(
                  "images",
                  form.images.filter((_, j) => j !== i),
                )
              }
            >
              Remove
            </button>
          </div>
        ))}
        {errors.images ? <span className="field-error">{errors.images}</span> : null}
        <div>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => set("images", [...form.images, ""])}
          >
            Add an image
          </button>
        </div>
        <span className="field-hint">The first image is the main one.</span>
      </fieldset>

      {conflict ? (
        <div className="alert alert-warn" role="alert" style={{ margin: 0 }}>
          <p>
            <strong>This product changed since you opened it.</strong> Reload it to see the current
            version, then make your change again.
          </p>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => void reload()}
            disabled={reloading}
          >
            {reloading ? "Reloading…" : "Reload"}
          </button>
        </div>
      ) : null}
      {errors.form ? (
        <Notice tone="bad" style={{ margin: 0 }}>
          <p>{errors.form}</p>
        </Notice>
      ) : null}
      {note ? (
        <div className="alert alert-info" role="status" style={{ margin: 0 }}>
          <p>{note}</p>
        </div>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending || conflict}>
          {save.isPending ? "Saving…" : "Save changes"}
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            dropDraft(userId, base.id);
            onCancel();
          }}
          disabled={save.isPending}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
