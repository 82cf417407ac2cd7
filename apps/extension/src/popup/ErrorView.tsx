import { useEffect, useState } from "react";
import type { UserError } from "../shared/user-error";
import { retryable, waitText } from "../shared/user-error";

/**
 * A failure, said once, with what the user can do about it: pair again, or try again when that
 * can help (with a countdown when the service asked to wait).
 */
export function ErrorView({
  error,
  onRetry,
  onPairAgain,
}: {
  error: UserError;
  onRetry?: () => void;
  onPairAgain?: () => void;
}) {
  const [now, setNow] = useState(() => Date.now());
  const waiting =
    error.kind === "rateLimited" && error.retryAt !== undefined && error.retryAt > now;
  useEffect(() => {
    if (error.kind !== "rateLimited") return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [error.kind]);
  return (
    <div className="stack">
      <div
        className={`alert ${error.kind === "restricted" ? "alert-info" : "alert-bad"}`}
        role="alert"
      >
        <p>{error.message}</p>
      </div>
      {error.kind === "unauthorized" && onPairAgain ? (
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={onPairAgain}>
            Pair again
          </button>
        </div>
      ) : onRetry && retryable(error) ? (
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={onRetry} disabled={waiting}>
            {waiting ? `Try again ${waitText(error.retryAt!, now)}` : "Try again"}
          </button>
        </div>
      ) : null}
    </div>
  );
}
