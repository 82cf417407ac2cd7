// The "Spreadsheet or file" tab: one file (chosen or dropped), an optional currency for prices
// without one and an optional text encoding for CSV/TSV (sent only when chosen).
import { useEffect, useRef, useState, type DragEvent, type SubmitEvent } from "react";
import { useLocation } from "@tanstack/react-router";
import { errorMessage } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { ENCODING_FIELD_ANCHOR, TEXT_ENCODINGS } from "../../lib/imports";
import { Field } from "../../ui/Field";
import { CURRENCIES, FILE_ACCEPT, fileProblem, formatBytes } from "./file-check";
import { useStartImport } from "./useStartImport";

interface FileImport {
  file: File;
  currency: string;
  encoding: string;
}

export function FileForm() {
  const [file, setFile] = useState<File | null>(null);
  const [currency, setCurrency] = useState("");
  const [encoding, setEncoding] = useState("");
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const encodingRef = useRef<HTMLSelectElement>(null);
  const start = useStartImport((v: FileImport) =>
    endpoints.imports.startFile(v.file, {
      currency: v.currency || undefined,
      encoding: v.encoding || undefined,
    }),
  );
  // Opened from "Import it again in another encoding": the select is what the user came for.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === ENCODING_FIELD_ANCHOR) encodingRef.current?.focus();
  }, [hash]);

  // A new choice puts the last refusal away (never an upload under way).
  const clearError = () => {
    if (start.isError) start.reset();
  };

  function choose(f: File | null | undefined) {
    clearError();
    if (!f) return;
    const problem = fileProblem(f);
    setFileError(problem);
    setFile(problem ? null : f);
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    const files = e.dataTransfer.files;
    if (files.length > 1) {
      setFileError("Drop one file at a time");
      return;
    }
    choose(files[0]);
  }

  function submit(e: SubmitEvent) {
    e.preventDefault();
    if (!file) {
      setFileError(fileError ?? "Choose a file first");
      inputRef.current?.focus();
      return;
    }
    start.mutate({ file, currency, encoding });
  }

  return (
    <form className="card-body stack" onSubmit={submit} noValidate>
      <div
        className={`dropzone${dragging ? " dragging" : ""}${fileError ? " invalid" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = "copy";
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Field
          label="Product file"
          hint="CSV, TSV, Excel (.xlsx), JSON (an array), NDJSON or XML. Shopify's and WooCommerce's product exports (CSV or WordPress XML) and Google Merchant Center feeds are recognised."
          error={fileError}
        >
          {(p) => (
            <input
              {...p}
              ref={inputRef}
              type="file"
              className="file-input"
              accept={FILE_ACCEPT}
              onChange={(e) => choose(e.target.files?.[0])}
            />
          )}
        </Field>
        <p className="small muted dropzone-hint" aria-hidden="true">
          …or drop the file here.
        </p>
        {file ? (
          <p className="chosen-file">
            <strong>{file.name}</strong> <span className="muted">· {formatBytes(file.size)}</span>
          </p>
        ) : null}
      </div>
      <div className="file-options">
        <Field
          label="Currency for prices without one"
          hint="Shopify's and WooCommerce's exports never say their currency: choose your store's, or their prices are left out."
          className="currency-field"
        >
          {(p) => (
            <select
              {...p}
              className="select"
              value={currency}
              onChange={(e) => setCurrency(e.target.value)}
            >
              <option value="">None: the file says</option>
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div id={ENCODING_FIELD_ANCHOR} className="encoding-field">
          <Field
            label="Text encoding"
            hint="CSV and TSV only, for files whose accents come out wrong."
          >
            {(p) => (
              <select
                {...p}
                ref={encodingRef}
                className="select"
                value={encoding}
                onChange={(e) => {
                  setEncoding(e.target.value);
                  clearError();
                }}
              >
                <option value="">Detect automatically</option>
                {TEXT_ENCODINGS.map((g) => (
                  <optgroup key={g.group} label={g.group}>
                    {g.options.map((o) => (
                      <option key={o.name} value={o.name}>
                        {o.label}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            )}
          </Field>
        </div>
      </div>
      {start.error ? (
        <div className="alert alert-bad" role="alert">
          <p>{errorMessage(start.error)}</p>
        </div>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={start.isPending}>
          {start.isPending ? "Uploading…" : "Preview file"}
        </button>
      </div>
    </form>
  );
}
