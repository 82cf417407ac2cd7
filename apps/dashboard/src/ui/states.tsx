import type { CSSProperties, ReactNode, Ref } from "react";
import { errorMessage, isStatus } from "../api/client";

export function Loading({ label = "Loading" }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}…</span>
    </div>
  );
}

export function Empty({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="state card">
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

/** The API's own `error` text, where the user acted; optionally a retry. */
export function ErrorMessage({
  error,
  title,
  onRetry,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}) {
  if (!error) return null;
  // A 401 is handled by the client (the user is sent to sign in); nothing to show here.
  if (isStatus(error, 401)) return null;
  return (
    <Notice tone="bad">
      <p>
        {title ? <strong>{title}: </strong> : null}
        {errorMessage(error)}
      </p>
      {onRetry ? (
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </Notice>
  );
}

/**
 * A message in a tone: "bad" is an alert (read out at once), the others a status. `ref` with
 * `tabIndex={-1}` lets a screen move focus to it.
 */
export function Notice({
  tone = "info",
  children,
  id,
  style,
  ref,
  tabIndex,
}: {
  tone?: "info" | "ok" | "warn" | "bad";
  children: ReactNode;
  id?: string;
  style?: CSSProperties;
  ref?: Ref<HTMLDivElement>;
  tabIndex?: number;
}) {
  return (
    <div
      id={id}
      className={`alert alert-${tone}`}
      role={tone === "bad" ? "alert" : "status"}
      style={style}
      ref={ref}
      tabIndex={tabIndex}
    >
      {children}
    </div>
  );
}
