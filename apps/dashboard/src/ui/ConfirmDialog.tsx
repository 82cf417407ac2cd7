import { useEffect, useRef, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../api/client";
import { focusScreenHeading } from "./focus";
import { Notice } from "./states";

/**
 * A confirmation on the native <dialog> (focus trap, Escape to cancel come with it). The text
 * should name what the action does or destroys. onConfirm may be async: the dialog stays open
 * while it runs and shows its error text if it fails; it closes when it succeeds.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = "Cancel",
  danger = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  /** May return a promise (e.g. a mutation's `mutateAsync`): a rejection is shown, not thrown. */
  onConfirm: () => unknown;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Closes when onConfirm succeeds; its error shows in the dialog.
  const action = useMutation({
    mutationFn: async () => {
      await onConfirm();
    },
    onSuccess: () => onClose(),
  });
  const busy = action.isPending;
  const { reset } = action;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      reset();
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
      // The dialog gives focus back to the button that opened it; when the action took that
      // away (a revoked key's Revoke), focus goes to the screen's title, not the page's body.
      if (document.activeElement === document.body) focusScreenHeading();
    }
  }, [open, reset]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={open ? "confirm-title" : undefined}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
      onClose={() => {
        if (open) onClose();
      }}
    >
      {open ? (
        <>
          <div className="dialog-body">
            <h2 id="confirm-title">{title}</h2>
            <div>{children}</div>
            {action.error ? (
              <Notice tone="bad" style={{ marginTop: 16, marginBottom: 0 }}>
                <p>{errorMessage(action.error)}</p>
              </Notice>
            ) : null}
          </div>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={onClose} disabled={busy} autoFocus>
              {cancelLabel}
            </button>
            <button
              type="button"
              className={danger ? "btn btn-danger" : "btn btn-primary"}
              onClick={() => action.mutate()}
              disabled={busy}
            >
              {busy ? "Working…" : confirmLabel}
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
