import { Link, useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { errorMessage } from "../api/client";

export function NotFound() {
  return (
    <div className="auth-page">
      <div className="state card">
        <h2>Page not found</h2>
        <p>There is nothing at this address.</p>
        <Link to="/products" className="btn btn-primary">
          Go to the catalog
        </Link>
      </div>
    </div>
  );
}

/** A screen that could not load at all (for example the service is down). */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <div className="auth-page">
      <div className="state card" role="alert">
        <h2>The dashboard could not load</h2>
        <p>{errorMessage(error)}</p>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          Try again
        </button>
      </div>
    </div>
  );
}

/** A screen that failed to render, inside the layout (the nav stays usable). */
export function ScreenError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <div className="page">
      <div className="state card" role="alert">
        <h2>This screen could not be shown</h2>
        <p>{errorMessage(error)}</p>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          Try again
        </button>
      </div>
    </div>
  );
}
