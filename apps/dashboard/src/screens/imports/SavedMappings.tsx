// The org's saved column mappings (templates), folded under the file form: which headers each
// is for, when it was last used, and Delete.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ImportMappingTemplate } from "../../api/column-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { formatDateTime, formatRelative, countOf } from "../../ui/format";
import { ErrorMessage } from "../../ui/states";

const HEADERS_SHOWN = 6;

export function SavedMappings() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: qk.importMappings, queryFn: endpoints.importMappings.list });
  const [deleting, setDeleting] = useState<ImportMappingTemplate | null>(null);
  const remove = useMutation({
    mutationFn: (t: ImportMappingTemplate) => endpoints.importMappings.remove(t.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.importMappings }),
  });
  const items = list.data?.items ?? [];
  // Nothing to manage yet: the panel offers saving one.
  if (list.isSuccess && items.length === 0) return null;

  return (
    <>
      <details className="card saved-mappings">
        <summary>Saved column mappings{list.data ? ` (${items.length})` : ""}</summary>
        <div className="card-body">
          <p className="small muted">
            A file whose headers are those of a saved mapping, in any order, is read with it.
          </p>
          <ErrorMessage
            error={list.error}
            title="Could not load the saved mappings"
            onRetry={() => void list.refetch()}
          />
          <ul className="saved-mapping-list">
            {items.map((t) => (
              <li key={t.id} className="saved-mapping">
                <div className="saved-mapping-text">
                  <strong className="wrap-anywhere">{t.name}</strong>
                  <span className="small muted wrap-anywhere">
                    {countOf(t.headers.length, "column")}:{" "}
                    {t.headers.slice(0, HEADERS_SHOWN).join(", ")}
                    {t.headers.length > HEADERS_SHOWN ? "…" : ""}
                  </span>
                  <span className="small muted">
                    {t.lastUsedAt ? (
                      <span title={formatDateTime(t.lastUsedAt)}>
                        Last used {formatRelative(t.lastUsedAt)}
                      </span>
                    ) : (
                      "Not used yet"
                    )}
                  </span>
                </div>
                <button
                  type="button"
                  className="btn btn-sm"
                  aria-label={`Delete the mapping “${t.name}”`}
                  onClick={() => setDeleting(t)}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        </div>
      </details>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the mapping “${deleting?.name ?? ""}”?`}
        confirmLabel="Delete mapping"
        danger
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      >
        <p>
          Files with these headers are then read automatically again, or with the mapping chosen on
          upload. Imports already made keep what they read.
        </p>
      </ConfirmDialog>
    </>
  );
}
