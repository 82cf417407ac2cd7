import { useEffect, useRef, useState, type ReactNode } from "react";
import { errorMessage } from "../api/client";

/**
 * A confirmation on the native <dialog> (focus trap, Escape to cancel come with it). The text
 * should name what the action does or destroys. onConfirm may be async: the dialog stays open
 * while it runs and shows its error text if it fails; it closes when it succeeds.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = "Cancel", danger = false, onConfirm, onClose }: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  onConfirm: () => unknown;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setError(null);
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={open ? "confirm-title" : undefined}
      onCancel={(e) => { e.preventDefault(); if (!busy) onClose(); }}
      onClose={() => { if (open) onClose(); }}
    >
      {open ? (
        <>
          <div className="dialog-body">
            <h2 id="confirm-title">{title}</h2>
            <div>{children}</div>
            {error ? <div className="alert alert-bad" role="alert" style={{ marginTop: 16, marginBottom: 0 }}><p>{error}</p></div> : null}
          </div>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={onClose} disabled={busy} autoFocus>{cancelLabel}</button>
            <button type="button" className={danger ? "btn btn-danger" : "btn btn-primary"} onClick={() => void confirm()} disabled={busy}>
              {busy ? "Working…" : confirmLabel}
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
