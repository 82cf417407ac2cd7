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

/** The line under a signed-out screen's heading: what the screen is for. */
export function AuthLead({ children }: { children: ReactNode }) {
  return (
    <p className="muted" style={{ marginTop: 4, marginBottom: 0 }}>
      {children}
    </p>
  );
}

/** A password the person types: their current one (sign in) or a new one (password reset). */
export function PasswordField({
  label,
  name,
  autoComplete,
  value,
  onChange,
  hint,
  error,
  autoFocus,
}: {
  label: string;
  name: string;
  autoComplete: "current-password" | "new-password";
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  error?: string | undefined;
  autoFocus?: boolean;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(p) => (
        <input
          {...p}
          className="input"
          type="password"
          name={name}
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required
        />
      )}
    </Field>
  );
}
