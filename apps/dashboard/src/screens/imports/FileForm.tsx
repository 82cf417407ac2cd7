// The "Spreadsheet or file" tab: one file (chosen or dropped), an optional currency for prices
// without one and an optional text encoding for CSV/TSV (sent only when chosen). Once chosen, the
// file's columns are asked for: a table the service cannot read alone (or any table, on "Map
// columns") gets the mapping panel before the import starts; one read with a saved template
// says so.
import { useEffect, useRef, useState, type DragEvent, type SubmitEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useLocation } from "@tanstack/react-router";
import type { ColumnMapping } from "../../api/column-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { ENCODING_FIELD_ANCHOR, TEXT_ENCODINGS } from "../../lib/imports";
import { Field } from "../../ui/Field";
import {
  draftFrom,
  isTableFile,
  mappingProblems,
  templateNameFor,
  toMapping,
  type DraftColumn,
} from "./column-mapping";
import { FILE_ACCEPT, fileProblem, formatBytes } from "./file-check";
import { CurrencySelect } from "../../ui/CurrencySelect";
import { ColumnsNote } from "./ColumnsNote";
import { MappingPanel, type SaveChoice } from "./MappingPanel";
import { useColumnsPreview } from "./useColumnsPreview";
import { useStartImport } from "./useStartImport";
import { Notice } from "../../ui/states";

interface FileImport {
  file: File;
  currency: string;
  encoding: string;
  /** Read as given; "automatic" skips a matching template; undefined lets the service choose. */
  mapping: ColumnMapping | "automatic" | undefined;
  /** Saved first, as the org's template for files with these headers. */
  template: { name: string; headers: string[]; mapping: ColumnMapping } | null;
}

export function FileForm() {
  const [file, setFile] = useState<File | null>(null);
  const [fileToken, setFileToken] = useState(0);
  const [currency, setCurrency] = useState("");
  const [encoding, setEncoding] = useState("");
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // The mapping panel's lines (null: closed), whether a matching template is used, saving one.
  const [draft, setDraft] = useState<DraftColumn[] | null>(null);
  const [skipTemplate, setSkipTemplate] = useState(false);
  const [saveChoice, setSaveChoice] = useState<SaveChoice>({ save: false, name: "" });
  const [saveNameError, setSaveNameError] = useState<string | null>(null);
  const [mappingError, setMappingError] = useState<string | null>(null);
  // The panel opened because the file cannot be read without it (it cannot be closed then).
  const [required, setRequired] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const encodingRef = useRef<HTMLSelectElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const queryClient = useQueryClient();
  const start = useStartImport(async (v: FileImport) => {
    if (v.template) {
      try {
        await endpoints.importMappings.save(v.template);
      } catch (err) {
        throw new Error(`The mapping was not saved, nothing was imported: ${errorMessage(err)}`, {
          cause: err,
        });
      }
      void queryClient.invalidateQueries({ queryKey: qk.importMappings });
    }
    return endpoints.imports.startFile(v.file, {
      currency: v.currency || undefined,
      encoding: v.encoding || undefined,
      mapping: v.mapping,
    });
  });

  const problems = draft ? mappingProblems(draft) : [];
  const mapping: ColumnMapping | "automatic" | undefined = draft
    ? toMapping(draft)
    : skipTemplate
      ? "automatic"
      : undefined;
  // The preview waits while the mapping on screen cannot be read (it keeps the last one).
  const columns = useColumnsPreview(
    file,
    fileToken,
    { currency: currency || undefined, encoding: encoding || undefined, mapping },
    problems.length === 0 && file !== null && isTableFile(file.name),
  );
  const data = columns.data;
  // A table's first reading decides whether the import needs a mapping: the button waits for it.
  const reading = columns.isPending && columns.fetchStatus === "fetching";
  const needsMapping = data?.mappable === true && data.needsMapping;

  // A file the service cannot read alone opens the panel with its reading so far (once per file,
  // as soon as its first answer is in: state adjusted while rendering, not in an effect).
  if (needsMapping && draft === null && !columns.isPlaceholderData && data && !required) {
    setDraft(draftFrom(data.columns));
    setRequired(true);
  }
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
    setFileToken((t) => t + 1);
    setDraft(null);
    setRequired(false);
    setSkipTemplate(false);
    setMappingError(null);
    setSaveNameError(null);
    setSaveChoice({ save: false, name: problem ? "" : templateNameFor(f.name) });
  }

  function openPanel() {
    if (!data) return;
    setDraft(draftFrom(data.columns));
    if (data.template && !skipTemplate) setSaveChoice({ save: false, name: data.template.name });
    setSkipTemplate(false);
    requestAnimationFrame(() => panelRef.current?.querySelector("select")?.focus());
  }

  function closePanel() {
    setDraft(null);
    setMappingError(null);
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
    let template: FileImport["template"] = null;
    if (draft) {
      if (problems.length > 0) {
        setMappingError(problems.join(" "));
        panelRef.current?.querySelector("select")?.focus();
        return;
      }
      setMappingError(null);
      if (saveChoice.save) {
        const name = saveChoice.name.trim();
        if (!name) {
          setSaveNameError("Name the template, or untick “Save as template”");
          return;
        }
        setSaveNameError(null);
        template = { name, headers: draft.map((d) => d.column), mapping: toMapping(draft) };
      }
    } else if (needsMapping) {
      openPanel();
      return;
    }
    start.mutate({ file, currency, encoding, mapping, template });
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
          hint="CSV, TSV, Excel (.xlsx), JSON (an array), NDJSON or XML. Exports from Shopify, WooCommerce (CSV or WordPress XML), Magento, PrestaShop and BigCommerce and Google Merchant Center feeds are recognised; any other sheet's columns you can map."
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
            <CurrencySelect
              {...p}
              value={currency}
              onChange={setCurrency}
              none="None: the file says"
            />
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
      {file && data ? (
        <ColumnsNote
          data={data}
          mapping={draft !== null}
          skipTemplate={skipTemplate}
          onMap={openPanel}
          onSkipTemplate={(skip) => {
            setSkipTemplate(skip);
            clearError();
          }}
        />
      ) : null}
      {file && draft ? (
        <div ref={panelRef}>
          <MappingPanel
            draft={draft}
            onDraft={(next) => {
              setDraft(next);
              setMappingError(null);
              clearError();
            }}
            data={data}
            updating={columns.isFetching}
            error={columns.error}
            problems={problems}
            saveChoice={saveChoice}
            onSaveChoice={(next) => {
              setSaveChoice(next);
              setSaveNameError(null);
            }}
            saveNameError={saveNameError}
            intro={
              required
                ? "These headers are not ones the catalog knows: choose what each column holds. The preview below follows your choices."
                : "Choose what each column holds. The preview below follows your choices."
            }
            onCancel={required ? null : closePanel}
          />
        </div>
      ) : null}
      {mappingError ? (
        <Notice tone="bad">
          <p>{mappingError}</p>
        </Notice>
      ) : null}
      {start.error ? (
        <Notice tone="bad">
          <p>{errorMessage(start.error)}</p>
        </Notice>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={start.isPending || reading}>
          {start.isPending
            ? "Uploading…"
            : reading
              ? "Reading the columns…"
              : draft
                ? "Import with this mapping"
                : "Preview file"}
        </button>
      </div>
    </form>
  );
}
