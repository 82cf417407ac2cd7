import type { ReactNode } from "react";

/** The signed-out screens' frame: the brand above one card (sign in, password reset). */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <div className="auth-page">
      <main className="auth-card">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span>Catalog</span>
        </div>
        <div className="card">{children}</div>
      </main>
    </div>
  );
}
