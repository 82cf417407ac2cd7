import { useEffect, useId, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { qk } from "../api/client";
import * as endpoints from "../api/endpoints";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Pick one product by title or SKU (or paste its id). Shows the chosen product as a chip with a
 * button to clear it. `value` is a product id; `title` its title when known.
 */
export function ProductPicker({
  label,
  value,
  title,
  onChange,
}: {
  label: string;
  value: string | undefined;
  title: string | undefined;
  onChange: (productId: string | undefined) => void;
}) {
  const id = useId();
  const [text, setText] = useState("");
  const [term, setTerm] = useState("");
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const t = setTimeout(() => setTerm(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);

  const matches = useQuery({
    queryKey: qk.products.list({ q: term, page: 1, pageSize: 8 }),
    queryFn: ({ signal }) => endpoints.products.list({ q: term, page: 1, pageSize: 8 }, signal),
    enabled: open && term.length > 0 && !UUID.test(term),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

  function choose(productId: string) {
    onChange(productId);
    setText("");
    setTerm("");
    setOpen(false);
  }

  if (value) {
    return (
      <div className="field">
        <span className="field-label" id={`${id}-label`}>
          {label}
        </span>
        <span className="chip" aria-labelledby={`${id}-label`}>
          <span className="chip-text" title={value}>
            {title ?? value.slice(0, 8)}
          </span>
          <button
            type="button"
            className="chip-clear"
            aria-label={`Any product (clear ${title ?? "the product"})`}
            onClick={() => onChange(undefined)}
          >
            ×
          </button>
        </span>
      </div>
    );
  }

  const items = matches.data?.items ?? [];
  return (
    <div
      className="field picker"
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="search"
        placeholder="Any product: type a title or SKU"
        autoComplete="off"
        value={text}
        aria-controls={open && term && !UUID.test(term) ? `${id}-list` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setOpen(false);
          if (e.key === "Enter") {
            e.preventDefault();
            const value = text.trim();
            if (UUID.test(value)) choose(value);
            else if (items[0]) choose(items[0].id);
          }
        }}
      />
      {open && term && !UUID.test(term) ? (
        <ul id={`${id}-list`} className="picker-list" aria-label="Matching products">
          {matches.isLoading ? (
            <li className="muted small picker-note">Searching…</li>
          ) : items.length === 0 ? (
            <li className="muted small picker-note">No product matches “{term}”</li>
          ) : (
            items.map((p) => (
              <li key={p.id}>
                <button type="button" onClick={() => choose(p.id)}>
                  <span>{p.title}</span>
                  {p.sku ? <span className="mono muted small">{p.sku}</span> : null}
                </button>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
