// The mapping panel: one line per column of the file (its header, a few sample values, the
// catalog field it is read as, a name for an option or attribute), the live preview under it,
// and saving the mapping as the org's template for files with these columns.
import { Fragment, useId } from "react";
import type { ColumnsPreview, MappedField } from "../../api/column-types";
import { FIELD_CHOICES, takesName, type DraftColumn } from "./column-mapping";
import { MappingPreview } from "./MappingPreview";

const SAMPLES_SHOWN = 4;

export interface SaveChoice {
  save: boolean;
  name: string;
}

export function MappingPanel({
  draft,
  onDraft,
  data,
  updating,
  error,
  problems,
  saveChoice,
  onSaveChoice,
  saveNameError,
  intro,
  onCancel,
}: {
  draft: DraftColumn[];
  onDraft: (next: DraftColumn[]) => void;
  data: ColumnsPreview | undefined;
  updating: boolean;
  error: unknown;
  problems: string[];
  saveChoice: SaveChoice;
  onSaveChoice: (next: SaveChoice) => void;
  saveNameError: string | null;
  intro: string;
  /** Closes the panel (the file is then read automatically or with its template). */
  onCancel: (() => void) | null;
}) {
  const id = useId();
  const samples = new Map(data?.columns.map((c) => [c.column, c.samples]) ?? []);
  const recognised = new Set(data?.columns.filter((c) => c.recognised).map((c) => c.column));
  const change = (index: number, patch: Partial<DraftColumn>) =>
    onDraft(draft.map((d, i) => (i === index ? { ...d, ...patch } : d)));

  return (
    <section className="mapping-panel" aria-labelledby={`${id}-h`}>
      <div className="section-head">
        <h3 id={`${id}-h`} className="mapping-h">
          Map the file’s columns
        </h3>
        {onCancel ? (
          <button type="button" className="btn btn-sm btn-ghost" onClick={onCancel}>
            Close without mapping
          </button>
        ) : null}
      </div>
      <p className="small muted mapping-intro">{intro}</p>
      <ul className="mapping-list">
        {draft.map((d, i) => {
          const selectId = `${id}-field-${i}`;
          const samplesId = `${id}-samples-${i}`;
          const values = (samples.get(d.column) ?? []).slice(0, SAMPLES_SHOWN);
          return (
            <li key={d.column + String(i)} className="mapping-line">
              <div className="mapping-column">
                <label htmlFor={selectId} className="mapping-header wrap-anywhere">
                  {d.column}
                </label>
                {recognised.has(d.column) ? (
                  <span className="badge badge-muted mapping-recognised">recognised</span>
                ) : null}
                <div id={samplesId} className="mapping-samples">
                  {values.length > 0 ? (
                    <>
                      <span className="visually-hidden">Examples: </span>
                      {values.map((v, j) => (
                        <Fragment key={j}>
                          <span className="mapping-sample" title={v}>
                            {v}
                          </span>
                          {j < values.length - 1 ? (
                            <span className="visually-hidden">, </span>
                          ) : null}
                        </Fragment>
                      ))}
                    </>
                  ) : (
                    <span className="mapping-sample-none">empty in the first rows</span>
                  )}
                </div>
              </div>
              <div className="mapping-choice">
                <select
                  id={selectId}
                  className="select"
                  aria-describedby={samplesId}
                  value={d.field}
                  onChange={(e) => change(i, { field: e.target.value as MappedField })}
                >
                  {FIELD_CHOICES.map((c) => (
                    <option key={c.field} value={c.field}>
                      {c.label}
                    </option>
                  ))}
                </select>
                {takesName(d.field) ? (
                  <div className="mapping-name">
                    <label htmlFor={`${selectId}-name`} className="small">
                      {d.field === "option" ? "Option name" : "Attribute name"}
                      <span className="visually-hidden"> for {d.column}</span>
                    </label>
                    <input
                      id={`${selectId}-name`}
                      className="input"
                      value={d.name}
                      maxLength={100}
                      placeholder={d.column}
                      onChange={(e) => change(i, { name: e.target.value })}
                    />
                  </div>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      <MappingPreview data={data} updating={updating} error={error} problems={problems} />
      <div className="mapping-save">
        <label className="mapping-save-check">
          <input
            type="checkbox"
            className="checkbox"
            checked={saveChoice.save}
            onChange={(e) => onSaveChoice({ ...saveChoice, save: e.target.checked })}
          />
          <span>Save as template for files with these columns</span>
        </label>
        {saveChoice.save ? (
          <div className="field mapping-save-name">
            <label className="field-label" htmlFor={`${id}-template`}>
              Template name
            </label>
            <input
              id={`${id}-template`}
              className="input"
              value={saveChoice.name}
              maxLength={80}
              aria-invalid={saveNameError ? true : undefined}
              aria-describedby={`${id}-template-hint${saveNameError ? ` ${id}-template-error` : ""}`}
              onChange={(e) => onSaveChoice({ ...saveChoice, name: e.target.value })}
            />
            <span id={`${id}-template-hint`} className="field-hint">
              Your team’s next file with the same headers, in any order, is read with it.
            </span>
            {saveNameError ? (
              <span id={`${id}-template-error`} className="field-error">
                {saveNameError}
              </span>
            ) : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}
