import type { ReactNode } from "react";
import { Field } from "./Field";

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

/** The address a person signs in with, first in its form (sign in, forgot password). */
export function EmailField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <Field label="Email">
      {(p) => (
        <input
          {...p}
          className="input"
          type="email"
          name="email"
          autoComplete="username"
          autoFocus
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required
        />
      )}
    </Field>
  );
}
