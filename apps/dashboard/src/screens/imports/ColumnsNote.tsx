// Under a chosen table file, how its columns will be read while the mapping panel is closed:
// with the org's saved template (say so, with a way to change it or not use it), or
// automatically (how many columns were recognised, and "Map columns").
import type { ColumnsPreview } from "../../api/column-types";
import { countOf } from "../../ui/format";

export function ColumnsNote({
  data,
  mapping,
  skipTemplate,
  onMap,
  onSkipTemplate,
}: {
  data: ColumnsPreview;
  /** The mapping panel is open: it says everything. */
  mapping: boolean;
  skipTemplate: boolean;
  onMap: () => void;
  onSkipTemplate: (skip: boolean) => void;
}) {
  if (!data.mappable || mapping || data.needsMapping) return null;
  if (data.template && !skipTemplate)
    return (
      <div className="alert alert-info columns-note" role="status">
        <p>
          This file has the columns of your saved mapping <strong>“{data.template.name}”</strong>:
          it will be read with it.
        </p>
        <div className="columns-note-actions">
          <button type="button" className="btn btn-sm" onClick={onMap}>
            Change the mapping
          </button>
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => onSkipTemplate(true)}
          >
            Read without it
          </button>
        </div>
      </div>
    );
  const recognised = data.columns.filter((c) => c.recognised).length;
  return (
    <div className="columns-note columns-note-plain" role="status">
      <p className="small muted">
        {data.template ? (
          <>Read automatically, not with your saved mapping “{data.template.name}”. </>
        ) : null}
        {countOf(data.columns.length, "column")}, {recognised} recognised.
      </p>
      <div className="columns-note-actions">
        {data.template ? (
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => onSkipTemplate(false)}
          >
            Use the saved mapping
          </button>
        ) : null}
        <button type="button" className="btn btn-sm" onClick={onMap}>
          Map columns
        </button>
      </div>
    </div>
  );
}
