import { useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { useNavigate } from "@tanstack/react-router";
import { ToastContext, type ToastAction, type ToastTone } from "./toast-context";

interface ToastItem {
  id: number;
  text: string;
  tone: ToastTone;
  action?: ToastAction;
}

/**
 * Short notices after an action ("Product saved"); errors stay where the user acted, this is extra.
 * Inside the router (root route).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const navigate = useNavigate();
  const nextId = useRef(1);
  const dismiss = useCallback(
    (id: number) => setItems((all) => all.filter((t) => t.id !== id)),
    [],
  );
  const notify = useCallback(
    (text: string, tone: ToastTone = "info", action?: ToastAction) => {
      const id = nextId.current++;
      setItems((all) => [...all.slice(-3), { id, text, tone, action }]);
      setTimeout(() => dismiss(id), tone === "bad" || action ? 9000 : 5000);
    },
    [dismiss],
  );
  const api = useMemo(() => ({ notify }), [notify]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {items.map((t) => (
          <div key={t.id} className={`toast toast-${t.tone}`}>
            <span>
              {t.text}
              {t.action ? (
                <>
                  {" "}
                  <a
                    href={t.action.href}
                    onClick={(e) => {
                      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                      e.preventDefault();
                      dismiss(t.id);
                      void navigate({ href: t.action?.href ?? "/" });
                    }}
                  >
                    {t.action.label}
                  </a>
                </>
              ) : null}
            </span>
            <button type="button" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
